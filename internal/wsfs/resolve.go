package wsfs

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
)

// ErrEscape is a symbolic link whose target leaves the root.
var ErrEscape = errors.New("the symbolic link leads out of the workspace")

// maxHops bounds the links Resolve follows for one path, as the kernel's
// ELOOP does.
const maxHops = 40

// An EscapeError is a link met while resolving a path whose target leaves
// the root: it names the link and its target string, never what lies
// behind it.
type EscapeError struct {
	Link   string // the link, a clean path inside the root
	Target string // its target, as stored
}

func (e *EscapeError) Error() string {
	return fmt.Sprintf("%q is a symbolic link to %q: %v", e.Link, e.Target, ErrEscape)
}

func (e *EscapeError) Unwrap() error { return ErrEscape }

// Resolve resolves the scenario path p for a read, following the symbolic
// links met on the way only as far as each one's target stays inside the
// root, judged on the target string alone (an absolute target, or one
// that climbs above the root, is an [*EscapeError]); nothing behind a link
// that leaves is looked at. It returns the clean path of the entry p
// names, which has no link in it but may itself be missing. A path whose
// resolution passes through .git is [ErrGit].
//
// Resolve only reads: writes never follow links (see [Root.WriteFile]).
// The entry it names is read with [Root.ReadFile], which follows no link,
// so a link swapped in after Resolve fails the read instead of leaving the
// root.
func (r *Root) Resolve(p string) (string, error) {
	c, err := Clean(p)
	if err != nil {
		return "", &Error{Op: "resolve", Path: p, Err: err}
	}
	done, rest := "", c // done: resolved, link-free; rest: still to walk
	for hops := 0; rest != ""; {
		seg, tail, _ := strings.Cut(rest, "/")
		next := path.Join(done, seg)
		if _, err := Clean(next); err != nil {
			return "", &Error{Op: "resolve", Path: p, Err: err}
		}
		st, err := r.root.Lstat(next)
		if errors.Is(err, fs.ErrNotExist) {
			return path.Join(next, tail), nil
		}
		if err != nil {
			return "", &Error{Op: "resolve", Path: p, Err: err}
		}
		if st.Mode()&fs.ModeSymlink == 0 {
			done, rest = next, tail
			continue
		}
		if hops++; hops > maxHops {
			return "", &Error{Op: "resolve", Path: p, Err: fmt.Errorf("more than %d symbolic links", maxHops)}
		}
		target, err := r.root.Readlink(next)
		if err != nil {
			return "", &Error{Op: "resolve", Path: p, Err: err}
		}
		t := strings.ReplaceAll(target, "\\", "/")
		joined := path.Join(done, t)
		if path.IsAbs(t) || (len(t) >= 2 && t[1] == ':') || joined == ".." || strings.HasPrefix(joined, "../") {
			return "", &EscapeError{Link: next, Target: target}
		}
		done, rest = "", strings.TrimPrefix(path.Join(joined, tail), "./")
		if rest == "." {
			rest = ""
		}
	}
	if done == "" {
		return "", &Error{Op: "resolve", Path: p, Err: fmt.Errorf("resolves to the workspace root: %w", ErrPath)}
	}
	return done, nil
}
