package workspace

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"

	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
)

// library names the workspace in its errors.
const library = "workspace"

// Code is a port error code (CONTRACTS §2); see [hosterr.Code].
type Code = hosterr.Code

// The port error codes the workspace returns. Their meaning follows the
// original workspace port (LAB_AND_HOSTS §10.2).
const (
	AlreadyExists      = hosterr.AlreadyExists
	Canceled           = hosterr.Canceled
	Conflict           = hosterr.Conflict
	DeadlineExceeded   = hosterr.DeadlineExceeded
	InvalidInput       = hosterr.InvalidInput
	IOError            = hosterr.IOError
	LimitExceeded      = hosterr.LimitExceeded
	NotFound           = hosterr.NotFound
	PermissionDenied   = hosterr.PermissionDenied
	PreconditionFailed = hosterr.PreconditionFailed
	Unavailable        = hosterr.Unavailable
)

// An Error is a typed workspace failure (see [hosterr.Error]); the
// workspace's errors have Library "workspace". Err, when set, is the
// underlying operating-system error.
type Error = hosterr.Error

// Sentinels for errors.Is, one per code; each matches the workspace's
// failures with that code.
var (
	ErrAlreadyExists      = &Error{Library: library, Code: AlreadyExists}
	ErrCanceled           = &Error{Library: library, Code: Canceled}
	ErrConflict           = &Error{Library: library, Code: Conflict}
	ErrDeadlineExceeded   = &Error{Library: library, Code: DeadlineExceeded}
	ErrInvalidInput       = &Error{Library: library, Code: InvalidInput}
	ErrIO                 = &Error{Library: library, Code: IOError}
	ErrLimitExceeded      = &Error{Library: library, Code: LimitExceeded}
	ErrNotFound           = &Error{Library: library, Code: NotFound}
	ErrPermissionDenied   = &Error{Library: library, Code: PermissionDenied}
	ErrPreconditionFailed = &Error{Library: library, Code: PreconditionFailed}
	ErrUnavailable        = &Error{Library: library, Code: Unavailable}
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

// fail builds a workspace *Error with a formatted message.
func fail(code Code, format string, args ...any) *Error {
	return hosterr.Newf(library, code, format, args...)
}

// checkContext turns a finished context into the port's CANCELED or
// DEADLINE_EXCEEDED failure (LAB_AND_HOSTS §10.2).
func checkContext(ctx context.Context) error { return hosterr.FromContext(ctx, library) }

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
	return &Error{Library: library, Code: code, Message: fmt.Sprintf("Workspace operation failed for '%s': %v.", rel, cause), Err: err}
}
