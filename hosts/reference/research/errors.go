package research

import "fmt"

// An Error is a typed research failure: a port code (INVALID_INPUT,
// PERMISSION_DENIED, NOT_FOUND, LIMIT_EXCEEDED, UNSUPPORTED, UNAVAILABLE,
// DEADLINE_EXCEEDED, CANCELED or PROVIDER_ERROR), a message that never
// carries a configured credential, whether a retry may succeed, and the
// HTTP status of the answer that caused it (0 when there was none).
type Error struct {
	Code      string
	Message   string
	Retryable bool
	Status    int
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

func fail(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

func retryable(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Retryable: true}
}

// invalidURL is the failure of a fetch URL that is not a public http(s)
// URL (the message of the original's contract double).
func invalidURL() *Error {
	return fail("INVALID_INPUT", "URL must be a valid public HTTP(S) URL.")
}
