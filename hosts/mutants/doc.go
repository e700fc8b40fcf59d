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
package mutants
