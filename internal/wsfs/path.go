package wsfs

import (
	"errors"
	"fmt"
	"path"
	"strings"
)

// Errors a scenario path is refused with, wrapped in an [*Error].
var (
	// ErrPath is a path that does not name an entry inside the root.
	ErrPath = errors.New("not a relative slash path inside the workspace")
	// ErrGit is a path under .git, the harness's own Git baseline.
	ErrGit = errors.New("paths under .git are the harness's own and no scenario may name them")
	// ErrLink is a path that goes through a symbolic link.
	ErrLink = errors.New("symbolic links in a scenario path are not followed")
	// ErrTooLarge is a read over its cap.
	ErrTooLarge = errors.New("file is over the read cap")
)

// An Error is a refused or failed operation on a scenario path.
type Error struct {
	Op   string // "write", "remove", "read", …
	Path string // the scenario path, as given
	Err  error
}

func (e *Error) Error() string { return fmt.Sprintf("%s %q: %v", e.Op, e.Path, e.Err) }

func (e *Error) Unwrap() error { return e.Err }

// Clean checks the scenario path p and returns it cleaned ("a/./b" is
// "a/b"). It refuses what [ErrPath] and [ErrGit] describe.
func Clean(p string) (string, error) {
	switch {
	case p == "" || strings.HasPrefix(p, "/"):
		return "", ErrPath
	case strings.ContainsAny(p, "\x00\\"):
		return "", ErrPath
	case len(p) >= 2 && p[1] == ':':
		return "", ErrPath // a Windows drive
	}
	c := path.Clean(p)
	if c == "." || c == ".." || strings.HasPrefix(c, "../") {
		return "", ErrPath
	}
	for seg := range strings.SplitSeq(c, "/") {
		if seg == ".." {
			return "", ErrPath
		}
		if strings.EqualFold(seg, ".git") {
			return "", ErrGit
		}
	}
	return c, nil
}
