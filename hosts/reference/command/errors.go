package command

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"syscall"
)

// Code is a port error code (CONTRACTS §2). The command runner only
// produces the codes declared below.
type Code string

// The port error codes the command runner returns (LAB_AND_HOSTS §11.2).
const (
	Canceled         Code = "CANCELED"
	DeadlineExceeded Code = "DEADLINE_EXCEEDED"
	InvalidInput     Code = "INVALID_INPUT"
	IOError          Code = "IO_ERROR"
	LimitExceeded    Code = "LIMIT_EXCEEDED"
	NotFound         Code = "NOT_FOUND"
	PermissionDenied Code = "PERMISSION_DENIED"
	Unavailable      Code = "UNAVAILABLE"
)

// An Error is a typed command-port failure: a port error code and the
// model-visible message the original port uses for it. Messages never
// contain the absolute workspace root. Err, when set, is the underlying
// cause. A command that ran is never an Error, whatever its exit status:
// non-zero exits, timeouts and cancellations are [Result] values.
type Error struct {
	Code    Code
	Message string
	Err     error
}

// Error returns the code and the message.
func (e *Error) Error() string { return fmt.Sprintf("command: %s: %s", e.Code, e.Message) }

// Unwrap returns the underlying cause, if any.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is an *Error sentinel with the same code, so
// errors.Is(err, command.ErrUnavailable) matches every UNAVAILABLE failure.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Message == "" && t.Err == nil && t.Code == e.Code
}

// Retryable reports whether the failure may succeed when retried unchanged;
// only UNAVAILABLE is retryable (LAB_AND_HOSTS §11.2 step 12).
func (e *Error) Retryable() bool { return e.Code == Unavailable }

// Sentinels for errors.Is, one per code.
var (
	ErrCanceled         = &Error{Code: Canceled}
	ErrDeadlineExceeded = &Error{Code: DeadlineExceeded}
	ErrInvalidInput     = &Error{Code: InvalidInput}
	ErrIO               = &Error{Code: IOError}
	ErrLimitExceeded    = &Error{Code: LimitExceeded}
	ErrNotFound         = &Error{Code: NotFound}
	ErrPermissionDenied = &Error{Code: PermissionDenied}
	ErrUnavailable      = &Error{Code: Unavailable}
)

// Messages the original command port uses verbatim (LAB_AND_HOSTS §11.2).
const (
	msgCanceled         = "The run was canceled."
	msgDeadline         = "The run deadline elapsed."
	msgCommandLength    = "Command must contain between 1 and 32768 characters."
	msgCwdNotDirectory  = "Command cwd must be a workspace directory."
	msgTimeoutPositive  = "timeoutMs must be a positive integer."
	msgNoImplementation = "The active command-containment backend has no executable implementation."
)

// fail builds an *Error with a formatted message.
func fail(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// contextError turns a finished context into CANCELED or
// DEADLINE_EXCEEDED (LAB_AND_HOSTS §11.2 step 1); nil while ctx is live.
func contextError(ctx context.Context) error {
	switch err := ctx.Err(); {
	case err == nil:
		return nil
	case errors.Is(err, context.DeadlineExceeded):
		return &Error{Code: DeadlineExceeded, Message: msgDeadline, Err: err}
	default:
		return &Error{Code: Canceled, Message: msgCanceled, Err: err}
	}
}

// spawnError maps an error met while starting a process to a port error
// (LAB_AND_HOSTS §11.2 step 12).
func spawnError(err error) error {
	var ce *Error
	if errors.As(err, &ce) {
		return err
	}
	code := IOError
	switch {
	case errors.Is(err, fs.ErrPermission), errors.Is(err, syscall.EACCES), errors.Is(err, syscall.EPERM):
		code = PermissionDenied
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		code = NotFound
	case errors.Is(err, syscall.EAGAIN), errors.Is(err, syscall.EBUSY):
		code = Unavailable
	case errors.Is(err, context.Canceled):
		code = Canceled
	case errors.Is(err, context.DeadlineExceeded):
		code = DeadlineExceeded
	}
	return &Error{Code: code, Message: fmt.Sprintf("Command could not be started: %v.", err), Err: err}
}
