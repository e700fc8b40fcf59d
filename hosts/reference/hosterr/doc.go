// Package hosterr is the typed port failure shared by the reference host's
// workspace and command libraries (CONTRACTS §2, LAB_AND_HOSTS §10.2 and
// §11.2).
//
// An [Error] carries a port error code, the model-visible message the
// original port uses and, when there is one, the underlying cause. The
// library that failed is named in [Error.Library]; a sentinel such as
// &Error{Library: "workspace", Code: NotFound} matches, through errors.Is,
// every NOT_FOUND failure of that library, and a sentinel without a
// Library matches every NOT_FOUND failure of any library.
//
// It is not core/port's Error: that one is the wire shape of a failure
// (a retryable flag, details, a suggested action) and has no cause to
// unwrap; this one is what a library returns before the host maps it onto
// that shape.
package hosterr
