// Package variants names the permitted variations of the reference host:
// each [Variant] is the reference host taking one choice the contract leaves
// to the host (hosts/wire/CONTRACTS.md "Host's choices", the tool pages) the
// other way. They are the mirror of the mutants (package mutants): a mutant
// breaks one guarantee and must fail some item; a variant keeps every
// guarantee and must pass every item, so an item that fails a variant
// checks more than the contract says (an over-specified check).
//
// `conform certify --host reference --variant NAME` serves one, and
// `conform selftest` certifies every variant beside the kill matrix.
//
//	v, ok := variants.Lookup("reworded")
//	h := v.Handler() // a jsonrpc.Handler
//
// A variant either sets reference host options or rewrites the host's
// answers (tool results and error messages) after the reference host has
// made them, the way another host would have written them.
package variants
