package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
)

// A Root is a workspace directory. Every path it accepts is a
// workspace-relative POSIX path resolved beneath the root (LAB_AND_HOSTS
// §9); lexical escapes and symlink escapes are refused. Mutations,
// snapshots and fingerprints are serialized by the Root, so a capture
// never observes half of one of its own mutations. A Root is safe for
// concurrent use.
type Root struct {
	dir        string // canonical absolute path, all symlinks resolved
	mu         sync.Mutex
	maxEntries int // traversal bound, MaxTraversalEntries outside tests
	faults     Faults
	choices    Choices
}

// Open opens the workspace rooted at dir, which must be an absolute path
// naming a directory. The root is canonicalized (symlinks resolved) once;
// every later check compares against the canonical root.
func Open(dir string) (*Root, error) {
	if !filepath.IsAbs(dir) {
		return nil, fmt.Errorf("workspace: root %q is not an absolute path", dir)
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, fmt.Errorf("workspace: cannot resolve root %q: %w", dir, err)
	}
	real, err = filepath.Abs(real)
	if err != nil {
		return nil, fmt.Errorf("workspace: cannot resolve root %q: %w", dir, err)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return nil, fmt.Errorf("workspace: cannot open root %q: %w", dir, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("workspace: root %q is not a directory", dir)
	}
	return &Root{dir: filepath.Clean(real), maxEntries: MaxTraversalEntries}, nil
}

// Dir returns the canonical absolute path of the root.
func (r *Root) Dir() string { return r.dir }

// lexical validates rel and joins it to the root without touching the file
// system. It returns the absolute path and the cleaned root-relative POSIX
// path ("." for the root).
func (r *Root) lexical(rel string) (abs, clean string, err error) {
	switch {
	case strings.ContainsRune(rel, 0):
		return "", "", fail(hosterr.InvalidInput, "Workspace path contains a null byte.")
	case strings.HasPrefix(rel, "/") || hasDriveLetter(rel):
		return "", "", fail(hosterr.PermissionDenied, "Workspace paths must be relative.")
	case strings.ContainsRune(rel, '\\'):
		return "", "", fail(hosterr.InvalidInput, "Workspace paths must use '/' separators: '%s'.", rel)
	}
	if rel == "" {
		rel = "."
	}
	clean = path.Clean(rel)
	if (clean == ".." || strings.HasPrefix(clean, "../")) && !r.faults.AcceptDotDot {
		return "", "", fail(hosterr.PermissionDenied, "Workspace path escapes the configured root: '%s'.", rel)
	}
	if runtime.GOOS == "windows" && strings.ContainsRune(clean, ':') {
		// A colon names a drive or an alternate data stream on Windows.
		return "", "", fail(hosterr.PermissionDenied, "Workspace paths must be relative.")
	}
	if clean == "." {
		return r.dir, ".", nil
	}
	return filepath.Join(r.dir, filepath.FromSlash(clean)), clean, nil
}

func hasDriveLetter(p string) bool {
	return len(p) >= 2 && p[1] == ':' && ((p[0] >= 'a' && p[0] <= 'z') || (p[0] >= 'A' && p[0] <= 'Z'))
}

// inside reports whether the absolute path p is the root or beneath it.
func (r *Root) inside(p string) bool {
	if r.faults.CaseFoldContainment || r.faults.PrefixContainment {
		return r.insideByString(p)
	}
	rel, err := filepath.Rel(r.dir, p)
	if err != nil || filepath.IsAbs(rel) {
		return false
	}
	return rel == "." || (rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)))
}

// relOf returns the root-relative POSIX path of an absolute path inside the
// root.
func (r *Root) relOf(abs string) string {
	rel, err := filepath.Rel(r.dir, abs)
	if err != nil || rel == "" {
		return "."
	}
	return filepath.ToSlash(rel)
}

// resolveExisting resolves rel following every symlink; the real path must
// exist and stay inside the root. It returns the real absolute path and its
// root-relative form.
func (r *Root) resolveExisting(rel string) (real, realRel string, err error) {
	abs, _, err := r.lexical(rel)
	if err != nil {
		return "", "", err
	}
	real, err = filepath.EvalSymlinks(abs)
	if err != nil {
		if CodeOf(err) == hosterr.NotFound {
			return "", "", &hosterr.Error{Library: library, Code: hosterr.NotFound, Message: fmt.Sprintf("Workspace path does not exist: '%s'.", rel), Err: err}
		}
		return "", "", ioError(rel, err)
	}
	escaped := !r.inside(real)
	if r.faults.FollowSymlinkEscapes || (r.faults.AcceptDotDot && !r.inside(abs)) {
		// The faulty host only guards symlinks, or judges an escape by
		// the lexical path alone.
		escaped = false
	}
	if escaped {
		return "", "", fail(hosterr.PermissionDenied, "Workspace symlink escapes the configured root: '%s'.", rel)
	}
	return real, r.relOf(real), nil
}

// resolveForWrite resolves rel for a mutation: the root itself is refused,
// no component may be a symlink (except the final one when allowFinalLink),
// and every existing non-final component must be a directory. Missing
// trailing components are allowed. No symlink is followed, so the returned
// absolute path is both lexical and real for the part that exists.
func (r *Root) resolveForWrite(rel string, allowFinalLink bool) (abs, clean string, err error) {
	abs, clean, err = r.lexical(rel)
	if err != nil {
		return "", "", err
	}
	if clean == "." {
		return "", "", fail(hosterr.PermissionDenied, "Mutating the workspace root is not allowed.")
	}
	segments := strings.Split(clean, "/")
	cur := r.dir
	for i, seg := range segments {
		cur = filepath.Join(cur, seg)
		fi, err := os.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			break
		}
		if err != nil {
			return "", "", ioError(rel, err)
		}
		final := i == len(segments)-1
		if fi.Mode()&fs.ModeSymlink != 0 {
			if final && allowFinalLink {
				break
			}
			if target, ok := r.danglingTarget(cur, final); ok {
				return target, clean, nil
			}
			return "", "", fail(hosterr.PermissionDenied, "Workspace mutation cannot follow symlink '%s'.", rel)
		}
		if !final && !fi.IsDir() {
			return "", "", fail(hosterr.InvalidInput, "Workspace mutation parent is not a directory: '%s'.", rel)
		}
	}
	return abs, clean, nil
}

// ResolveDir resolves rel to the real absolute path of an existing
// directory inside the root, following symlinks that stay inside. It is
// the check for a command's working directory (LAB_AND_HOSTS §11.2 step 3):
// an escape is PERMISSION_DENIED, a missing path NOT_FOUND and a
// non-directory INVALID_INPUT.
func (r *Root) ResolveDir(rel string) (string, error) {
	real, _, err := r.resolveExisting(rel)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(real)
	if err != nil {
		return "", ioError(rel, err)
	}
	if !fi.IsDir() {
		return "", fail(hosterr.InvalidInput, "Workspace path is not a directory: '%s'.", rel)
	}
	return real, nil
}

// kindOf classifies a mode without following links.
func kindOf(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return KindFile
	case m.IsDir():
		return KindDirectory
	case m&fs.ModeSymlink != 0:
		return KindSymlink
	}
	return KindOther
}

// Entry kinds (CONTRACTS §7.5, AI_CODER_WORKSPACE_ENTRY_KINDS).
const (
	KindFile      = "file"
	KindDirectory = "directory"
	KindSymlink   = "symlink"
	KindOther     = "other"
	KindMissing   = "missing"
)
