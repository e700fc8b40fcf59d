package command

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"syscall"

	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
)

// library names the command runner in its errors.
const library = "command"

// Code is a port error code (CONTRACTS §2); see [hosterr.Code]. The
// command runner only produces the codes declared below.
type Code = hosterr.Code

// The port error codes the command runner returns (LAB_AND_HOSTS §11.2).
const (
	Canceled         = hosterr.Canceled
	DeadlineExceeded = hosterr.DeadlineExceeded
	InvalidInput     = hosterr.InvalidInput
	IOError          = hosterr.IOError
	LimitExceeded    = hosterr.LimitExceeded
	NotFound         = hosterr.NotFound
	PermissionDenied = hosterr.PermissionDenied
	Unavailable      = hosterr.Unavailable
)

// An Error is a typed command-port failure (see [hosterr.Error]); the
// runner's errors have Library "command". A command that ran is never an
// Error, whatever its exit status: non-zero exits, timeouts and
// cancellations are [Result] values.
type Error = hosterr.Error

// Sentinels for errors.Is, one per code; each matches the runner's
// failures with that code.
var (
	ErrCanceled         = &Error{Library: library, Code: Canceled}
	ErrDeadlineExceeded = &Error{Library: library, Code: DeadlineExceeded}
	ErrInvalidInput     = &Error{Library: library, Code: InvalidInput}
	ErrIO               = &Error{Library: library, Code: IOError}
	ErrLimitExceeded    = &Error{Library: library, Code: LimitExceeded}
	ErrNotFound         = &Error{Library: library, Code: NotFound}
	ErrPermissionDenied = &Error{Library: library, Code: PermissionDenied}
	ErrUnavailable      = &Error{Library: library, Code: Unavailable}
)

// Messages the original command port uses verbatim (LAB_AND_HOSTS §11.2).
const (
	msgDeadline         = hosterr.MsgDeadline
	msgCommandLength    = "Command must contain between 1 and 32768 characters."
	msgCwdNotDirectory  = "Command cwd must be a workspace directory."
	msgTimeoutPositive  = "timeoutMs must be a positive integer."
	msgNoImplementation = "The active command-containment backend has no executable implementation."
)

// fail builds a command *Error with a formatted message.
func fail(code Code, format string, args ...any) *Error {
	return hosterr.Newf(library, code, format, args...)
}

// contextError turns a finished context into CANCELED or
// DEADLINE_EXCEEDED (LAB_AND_HOSTS §11.2 step 1); nil while ctx is live.
func contextError(ctx context.Context) error { return hosterr.FromContext(ctx, library) }

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
	return &Error{Library: library, Code: code, Message: fmt.Sprintf("Command could not be started: %v.", err), Err: err}
}
