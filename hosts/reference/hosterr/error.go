package hosterr

import (
	"context"
	"errors"
	"fmt"
)

// Code is a port error code (CONTRACTS §2).
type Code string

// The port error codes the reference host's libraries return.
const (
	AlreadyExists      Code = "ALREADY_EXISTS"
	Canceled           Code = "CANCELED"
	Conflict           Code = "CONFLICT"
	DeadlineExceeded   Code = "DEADLINE_EXCEEDED"
	InvalidInput       Code = "INVALID_INPUT"
	IOError            Code = "IO_ERROR"
	LimitExceeded      Code = "LIMIT_EXCEEDED"
	NotFound           Code = "NOT_FOUND"
	PermissionDenied   Code = "PERMISSION_DENIED"
	PreconditionFailed Code = "PRECONDITION_FAILED"
	Unavailable        Code = "UNAVAILABLE"
)

// The messages of a run whose context finished, shared by every port
// (LAB_AND_HOSTS §10.2, §11.2 step 1).
const (
	MsgCanceled = "The run was canceled."
	MsgDeadline = "The run deadline elapsed."
)

// An Error is a typed port failure: the library that failed (Library,
// such as "workspace" or "command"), a port error code, and the model-visible
// message the original port uses for it. Messages never contain the
// absolute workspace root. Err, when set, is the underlying cause.
type Error struct {
	Library string
	Code    Code
	Message string
	Err     error
}

// Error returns "<library>: <code>: <message>", or "<code>: <message>"
// when Library is empty.
func (e *Error) Error() string {
	if e.Library == "" {
		return fmt.Sprintf("%s: %s", e.Code, e.Message)
	}
	return fmt.Sprintf("%s: %s: %s", e.Library, e.Code, e.Message)
}

// Unwrap returns the underlying cause, if any.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is a sentinel (an *Error with neither message
// nor cause) with the same code and, when the sentinel names a library,
// the same library.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Message == "" && t.Err == nil && t.Code == e.Code && (t.Library == "" || t.Library == e.Library)
}

// Retryable reports whether the failure may succeed when retried unchanged;
// only UNAVAILABLE is retryable (LAB_AND_HOSTS §10.2, §11.2 step 12).
func (e *Error) Retryable() bool { return e.Code == Unavailable }

// Newf returns an *Error of library with code and a formatted message.
func Newf(library string, code Code, format string, args ...any) *Error {
	return &Error{Library: library, Code: code, Message: fmt.Sprintf(format, args...)}
}

// FromContext turns a finished context into library's DEADLINE_EXCEEDED
// or CANCELED failure with the context's error as cause; it is nil while
// ctx is live.
func FromContext(ctx context.Context, library string) error {
	switch err := ctx.Err(); {
	case err == nil:
		return nil
	case errors.Is(err, context.DeadlineExceeded):
		return &Error{Library: library, Code: DeadlineExceeded, Message: MsgDeadline, Err: err}
	default:
		return &Error{Library: library, Code: Canceled, Message: MsgCanceled, Err: err}
	}
}
