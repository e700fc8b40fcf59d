package prompt

import "fmt"

// Error kinds of a [RequestError]: the JavaScript class the original
// runtime throws for the same rejection.
const (
	KindTypeError = "TypeError"
)

// Runtime error codes this package produces (RUNTIME §8.1).
const (
	CodeCapabilityMismatch = "CAPABILITY_MISMATCH"
)

// A RequestError is the synchronous rejection of a run request (RUNTIME
// §4.2–§4.3, CONTRACTS §9.1–§9.3). Kind is the JavaScript error class the
// original runtime throws ("TypeError") and Message its exact text, for
// example "systemPrompt is no longer accepted; provide the structured
// prompt configuration.".
type RequestError struct {
	Kind    string
	Message string
}

// Error returns the message unchanged.
func (e *RequestError) Error() string { return e.Message }

// An Error is a runtime error with a code of RUNTIME §8.1, raised while a
// run is prepared rather than when the request is read (for example
// CAPABILITY_MISMATCH when command.run is active without a concrete
// interpreter). The run controller ends the run with Code and Message.
type Error struct {
	Code    string
	Message string
}

// Error returns "CODE: message".
func (e *Error) Error() string { return e.Code + ": " + e.Message }

func typeError(format string, args ...any) *RequestError {
	return &RequestError{Kind: KindTypeError, Message: fmt.Sprintf(format, args...)}
}
