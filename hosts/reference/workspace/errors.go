package workspace

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// Code is a port error code (CONTRACTS §2). The workspace only produces the
// codes declared below.
type Code string

// The port error codes the workspace returns. Their meaning follows the
// original workspace port (LAB_AND_HOSTS §10.2).
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

// An Error is a typed workspace failure: a port error code and the
// model-visible message the original port uses for it. Messages never
// contain the absolute workspace root. Err, when set, is the underlying
// operating-system error.
type Error struct {
	Code    Code
	Message string
	Err     error
}

// Error returns the code and the message.
func (e *Error) Error() string { return fmt.Sprintf("workspace: %s: %s", e.Code, e.Message) }

// Unwrap returns the underlying operating-system error, if any.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is an *Error sentinel with the same code, so
// errors.Is(err, workspace.ErrNotFound) matches every NOT_FOUND failure.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Message == "" && t.Err == nil && t.Code == e.Code
}

// Retryable reports whether the failure may succeed when retried unchanged;
// only UNAVAILABLE is retryable (LAB_AND_HOSTS §10.2).
func (e *Error) Retryable() bool { return e.Code == Unavailable }

// Sentinels for errors.Is, one per code.
var (
	ErrAlreadyExists      = &Error{Code: AlreadyExists}
	ErrCanceled           = &Error{Code: Canceled}
	ErrConflict           = &Error{Code: Conflict}
	ErrDeadlineExceeded   = &Error{Code: DeadlineExceeded}
	ErrInvalidInput       = &Error{Code: InvalidInput}
	ErrIO                 = &Error{Code: IOError}
	ErrLimitExceeded      = &Error{Code: LimitExceeded}
	ErrNotFound           = &Error{Code: NotFound}
	ErrPermissionDenied   = &Error{Code: PermissionDenied}
	ErrPreconditionFailed = &Error{Code: PreconditionFailed}
	ErrUnavailable        = &Error{Code: Unavailable}
)

// CodeOf maps any error to a port error code: the code of an *Error in the
// chain, else the mapping of LAB_AND_HOSTS §10.2 for context and
// operating-system errors, else IO_ERROR. CodeOf(nil) is "".
func CodeOf(err error) Code {
	if err == nil {
		return ""
	}
	var we *Error
	if errors.As(err, &we) {
		return we.Code
	}
	switch {
	case errors.Is(err, context.Canceled):
		return Canceled
	case errors.Is(err, context.DeadlineExceeded):
		return DeadlineExceeded
	case errors.Is(err, syscall.ENOTDIR):
		return InvalidInput
	case errors.Is(err, fs.ErrNotExist):
		return NotFound
	case errors.Is(err, fs.ErrExist):
		return AlreadyExists
	case errors.Is(err, fs.ErrPermission):
		return PermissionDenied
	case errors.Is(err, syscall.EAGAIN), errors.Is(err, syscall.EBUSY):
		return Unavailable
	}
	return IOError
}

// fail builds an *Error with a formatted message.
func fail(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// checkContext turns a finished context into the port's CANCELED or
// DEADLINE_EXCEEDED failure (LAB_AND_HOSTS §10.2).
func checkContext(ctx context.Context) error {
	switch err := ctx.Err(); {
	case err == nil:
		return nil
	case errors.Is(err, context.DeadlineExceeded):
		return &Error{Code: DeadlineExceeded, Message: "The run deadline elapsed.", Err: err}
	default:
		return &Error{Code: Canceled, Message: "The run was canceled.", Err: err}
	}
}

// ioError wraps an operating-system error met while working on the
// workspace path rel. The message names rel, never the absolute path.
func ioError(rel string, err error) error {
	if err == nil {
		return nil
	}
	var we *Error
	if errors.As(err, &we) {
		return err
	}
	code := CodeOf(err)
	cause := err
	var pe *fs.PathError
	if errors.As(err, &pe) {
		cause = pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		cause = le.Err
	}
	return &Error{Code: code, Message: fmt.Sprintf("Workspace operation failed for '%s': %v.", rel, cause), Err: err}
}
