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

// Sentinels for errors.Is, for the codes callers test: each matches the
// workspace's failures with that code.
var (
	ErrNotFound         = &hosterr.Error{Library: library, Code: hosterr.NotFound}
	ErrPermissionDenied = &hosterr.Error{Library: library, Code: hosterr.PermissionDenied}
)

// CodeOf maps any error to a port error code: the code of an *Error in the
// chain, else the mapping of LAB_AND_HOSTS §10.2 for context and
// operating-system errors, else IO_ERROR. CodeOf(nil) is "".
func CodeOf(err error) hosterr.Code {
	if err == nil {
		return ""
	}
	var we *hosterr.Error
	if errors.As(err, &we) {
		return we.Code
	}
	switch {
	case errors.Is(err, context.Canceled):
		return hosterr.Canceled
	case errors.Is(err, context.DeadlineExceeded):
		return hosterr.DeadlineExceeded
	case errors.Is(err, syscall.ENOTDIR):
		return hosterr.InvalidInput
	case errors.Is(err, fs.ErrNotExist):
		return hosterr.NotFound
	case errors.Is(err, fs.ErrExist):
		return hosterr.AlreadyExists
	case errors.Is(err, fs.ErrPermission):
		return hosterr.PermissionDenied
	case errors.Is(err, syscall.EAGAIN), errors.Is(err, syscall.EBUSY):
		return hosterr.Unavailable
	}
	return hosterr.IOError
}

// fail builds a workspace *Error with a formatted message.
func fail(code hosterr.Code, format string, args ...any) *hosterr.Error {
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
	var we *hosterr.Error
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
	return &hosterr.Error{Library: library, Code: code, Message: fmt.Sprintf("Workspace operation failed for '%s': %v.", rel, cause), Err: err}
}
