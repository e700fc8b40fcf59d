// Package reference is conform's reference host: a real, conformant host of
// the AI Coder runtime that works on a real directory. It shows what passing
// the matrix looks like, and its mutants (package mutants) show that the
// matrix can fail.
//
// The host is served over the host protocol by `conform host serve
// reference`; tests may also use it in process through [New].
package reference
