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

// Sentinels for errors.Is, for the codes callers test: each matches the
// runner's failures with that code.
var (
	ErrCanceled         = &hosterr.Error{Library: library, Code: hosterr.Canceled}
	ErrPermissionDenied = &hosterr.Error{Library: library, Code: hosterr.PermissionDenied}
	ErrUnavailable      = &hosterr.Error{Library: library, Code: hosterr.Unavailable}
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
func fail(code hosterr.Code, format string, args ...any) *hosterr.Error {
	return hosterr.Newf(library, code, format, args...)
}

// contextError turns a finished context into CANCELED or
// DEADLINE_EXCEEDED (LAB_AND_HOSTS §11.2 step 1); nil while ctx is live.
func contextError(ctx context.Context) error { return hosterr.FromContext(ctx, library) }

// spawnError maps an error met while starting a process to a port error
// (LAB_AND_HOSTS §11.2 step 12).
func spawnError(err error) error {
	var ce *hosterr.Error
	if errors.As(err, &ce) {
		return err
	}
	code := hosterr.IOError
	switch {
	case errors.Is(err, fs.ErrPermission), errors.Is(err, syscall.EACCES), errors.Is(err, syscall.EPERM):
		code = hosterr.PermissionDenied
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		code = hosterr.NotFound
	case errors.Is(err, syscall.EAGAIN), errors.Is(err, syscall.EBUSY):
		code = hosterr.Unavailable
	case errors.Is(err, context.Canceled):
		code = hosterr.Canceled
	case errors.Is(err, context.DeadlineExceeded):
		code = hosterr.DeadlineExceeded
	}
	return &hosterr.Error{Library: library, Code: code, Message: fmt.Sprintf("Command could not be started: %v.", err), Err: err}
}
