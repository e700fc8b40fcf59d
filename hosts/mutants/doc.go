// Package mutants names the deliberately broken variants of the reference
// host: each [Mutant] is the reference host with exactly one fault
// switched on, breaking exactly one host guarantee (S000 "Required host
// guarantees"). They prove that the matrix can fail: `conform certify
// --host reference --mutant NAME` serves one, and every host-facing matrix
// item must be failed by at least one of them.
//
//	m, ok := mutants.Lookup("symlink-escape")
//	h := reference.NewWith(m.Options()) // a jsonrpc.Handler
//
// `conform host mutants` lists them with their one-line descriptions.
// Names are checked against this registry (and the built-in host names of
// package builtin) without building a host: see builtin.Check.
//
// # Adding a mutant
//
// A mutant is one registry entry plus its test; the fault it switches on
// lives in the reference host, and the matrix says which items catch it.
// The tests named below fail until each step is done.
//
//  1. The fault: a bool field of [reference.Faults], or of the Faults of
//     the library that owns the guarantee (hosts/reference/workspace,
//     hosts/reference/command, hosts/reference/research), documented with
//     the deviation it makes, and the branch that deviates where the host
//     keeps the guarantee. The zero value stays the conformant host.
//     ("covers every fault switch of the reference host with some mutant"
//     fails while no mutant sets the field.)
//  2. The entry: one line in registry() in registry.go: the kebab-case
//     name, the guarantee it breaks (a g… constant, in S000's words), a
//     one-line description, and the Faults value with exactly that one
//     field set ("switches exactly one fault on per mutant"). A new g…
//     constant also needs its sentence keys in sentences.go (the keys of
//     `conform matrix --json`: W5, C8, L27, …): selftest credits a kill
//     only to an assertion of one of them ("are named for every mutant").
//  3. Its test: a spec in the specs map of wire_test.go (or of the
//     wire_*_test.go file for its area) in which the reference host and
//     the mutant, each a real process, answer the same requests
//     differently on exactly that guarantee ("has a wire-level spec for
//     every mutant").
//  4. Its killers: the items that must fail it, in mutantTargets in
//     matrix/selftest/targets.go (TestEveryMutantHasTargets), then
//     `go test ./matrix -run TestMatrixDoc -update-doc` to regenerate
//     matrix/MATRIX.md, which lists the mutants each item kills.
//
// `conform selftest` then runs the mutant against its targets and reports
// it killed (an item failed on an assertion of one of its sentences),
// collateral (items failed, but only because the host died, a deadline
// passed or a check of another sentence failed) or surviving; only killed
// passes.
//
// # Adding a built-in host variant
//
// A built-in host variant (today "reference" and "doubles") is one entry
// in the hosts table of package builtin, a factory that builds its
// handler, plus its test in hosts/builtin. The table's names are what
// --host and `conform host serve` accept; the factory runs only when the
// variant will serve.
package mutants
