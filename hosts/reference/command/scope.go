package command

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
)

// canonicalRoot resolves a workspace root to its absolute real path, which
// must be a directory (LAB_AND_HOSTS §9).
func canonicalRoot(root string) (string, error) {
	if root == "" {
		return "", errors.New("command: workspace root is empty")
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", fmt.Errorf("command: resolving workspace root %q: %w", root, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("command: resolving workspace root %q: %w", root, err)
	}
	info, err := os.Stat(real)
	if err != nil {
		return "", fmt.Errorf("command: workspace root %q: %w", root, err)
	}
	if !info.IsDir() {
		return "", fmt.Errorf("command: workspace root %q is not a directory", root)
	}
	return real, nil
}

// inside reports whether candidate is root or beneath it; both must be
// clean absolute paths.
func inside(root, candidate string) bool {
	rel, err := filepath.Rel(root, candidate)
	if err != nil {
		return false
	}
	return rel == "." || (rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel))
}

// isAbsolute reports whether a workspace path is absolute in either POSIX
// or host syntax.
func isAbsolute(rel string) bool {
	return filepath.IsAbs(rel) || strings.HasPrefix(rel, "/") || strings.HasPrefix(rel, `\`) || filepath.VolumeName(rel) != ""
}

// resolveCwd resolves a workspace-relative cwd the way the original port's
// resolveExisting does (LAB_AND_HOSTS §9, §11.2 step 3): lexical escape and
// symlink escape are PERMISSION_DENIED, a missing path NOT_FOUND, a
// non-directory INVALID_INPUT. It returns the real path.
func resolveCwd(root, rel string) (string, error) {
	return resolveCwdWith(root, rel, inside)
}

// resolveCwdWith is resolveCwd with in deciding whether the real path
// lies beneath the root.
func resolveCwdWith(root, rel string, in func(root, candidate string) bool) (string, error) {
	if rel == "" {
		rel = "."
	}
	if strings.IndexByte(rel, 0) >= 0 {
		return "", fail(hosterr.InvalidInput, "Workspace path contains a null byte.")
	}
	if isAbsolute(rel) {
		return "", fail(hosterr.PermissionDenied, "Workspace paths must be relative.")
	}
	lexical := filepath.Join(root, filepath.FromSlash(rel))
	if !inside(root, lexical) {
		return "", fail(hosterr.PermissionDenied, "Workspace path escapes the configured root: '%s'.", rel)
	}
	real, err := filepath.EvalSymlinks(lexical)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return "", &hosterr.Error{Library: library, Code: hosterr.NotFound, Message: fmt.Sprintf("Command cwd was not found: '%s'.", rel), Err: err}
		}
		return "", &hosterr.Error{Library: library, Code: codeOfFS(err), Message: fmt.Sprintf("Command cwd could not be resolved: '%s'.", rel), Err: err}
	}
	if !in(root, real) {
		return "", fail(hosterr.PermissionDenied, "Workspace symlink escapes the configured root: '%s'.", rel)
	}
	info, err := os.Lstat(real)
	if err != nil {
		return "", &hosterr.Error{Library: library, Code: codeOfFS(err), Message: fmt.Sprintf("Command cwd could not be resolved: '%s'.", rel), Err: err}
	}
	if !info.IsDir() {
		return "", fail(hosterr.InvalidInput, msgCwdNotDirectory)
	}
	return real, nil
}

// codeOfFS maps a file-system error to a port code.
func codeOfFS(err error) hosterr.Code {
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		return hosterr.NotFound
	case errors.Is(err, fs.ErrPermission):
		return hosterr.PermissionDenied
	case errors.Is(err, syscall.EAGAIN), errors.Is(err, syscall.EBUSY):
		return hosterr.Unavailable
	}
	return hosterr.IOError
}
