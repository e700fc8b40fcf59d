package wsfs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/galaxy-stack/conform/internal/atomicfile"
)

// A Root is a workspace directory opened for contained operations. It is
// safe for concurrent use, as [os.Root] is.
type Root struct {
	root *os.Root
}

// Open opens the directory dir as a Root. dir itself is the caller's (a
// directory conform made, or one the user named) and may be reached
// through links; only the paths below it are scenario paths.
func Open(dir string) (*Root, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &Root{root: r}, nil
}

// Close closes the root.
func (r *Root) Close() error { return r.root.Close() }

// Name returns the directory the root was opened with.
func (r *Root) Name() string { return r.root.Name() }

// testHookChecked, when set by a test, runs after a path's parents were
// checked and before the operation: the moment a racing process could
// swap a component for a link.
var testHookChecked func(p string)

// parents checks every parent component of the clean path p: each must be
// a directory, never a symbolic link. With create, missing parents are
// made (0755); without, a missing parent is fs.ErrNotExist.
func (r *Root) parents(p string, create bool) error {
	i := 0
	for {
		j := strings.IndexByte(p[i:], '/')
		if j < 0 {
			break
		}
		dir := p[:i+j]
		i += j + 1
		st, err := r.root.Lstat(dir)
		if errors.Is(err, fs.ErrNotExist) && create {
			if err = r.root.Mkdir(dir, 0o755); err == nil || errors.Is(err, fs.ErrExist) {
				st, err = r.root.Lstat(dir)
			}
		}
		if err != nil {
			return err
		}
		switch {
		case st.Mode()&fs.ModeSymlink != 0:
			return fmt.Errorf("%q is a symbolic link: %w", dir, ErrLink)
		case !st.IsDir():
			return fmt.Errorf("%q is not a directory", dir)
		}
	}
	if testHookChecked != nil {
		testHookChecked(p)
	}
	return nil
}

// resolve cleans p and checks its parents, for the operation op.
func (r *Root) resolve(op, p string, create bool) (string, error) {
	c, err := Clean(p)
	if err != nil {
		return "", &Error{Op: op, Path: p, Err: err}
	}
	if err := r.parents(c, create); err != nil {
		return "", &Error{Op: op, Path: p, Err: err}
	}
	return c, nil
}

// WriteFile replaces the entry at p with a regular file holding data,
// with permission perm, making missing parent directories. The file is
// written atomically (package atomicfile: a temporary file beside p,
// synced and renamed over it), so a symbolic link at p is replaced, never
// followed; a directory at p is an error.
func (r *Root) WriteFile(p string, data []byte, perm fs.FileMode) error {
	return r.create("write", p, func(c string) error { return atomicfile.WriteFileIn(r.root, c, data, perm) })
}

// create resolves p for op, making missing parents, and makes the entry
// with makeEntry on the resolved path, whose error is an *Error of op at p.
func (r *Root) create(op, p string, makeEntry func(c string) error) error {
	c, err := r.resolve(op, p, true)
	if err != nil {
		return err
	}
	if err := makeEntry(c); err != nil {
		return &Error{Op: op, Path: p, Err: err}
	}
	return nil
}

// Mkdir makes the directory p (0755), making missing parents.
func (r *Root) Mkdir(p string) error {
	return r.create("mkdir", p, func(c string) error { return r.root.Mkdir(c, 0o755) })
}

// MkdirAll makes the directory p and its missing parents (0755); an
// existing directory is left alone, an existing link is refused.
func (r *Root) MkdirAll(p string) error {
	return r.create("mkdir", p, func(c string) error {
		err := r.root.Mkdir(c, 0o755)
		if errors.Is(err, fs.ErrExist) {
			var st fs.FileInfo
			if st, err = r.root.Lstat(c); err == nil && !st.IsDir() {
				err = fmt.Errorf("%q is a %s, not a directory", c, Kind(st.Mode()))
			}
		}
		return err
	})
}

// Symlink makes p a symbolic link to target, making missing parents. The
// target is stored as given; it is never resolved here.
func (r *Root) Symlink(target, p string) error {
	return r.create("symlink", p, func(c string) error { return r.root.Symlink(target, c) })
}

// Mkfifo makes p a FIFO (0644), making missing parents.
func (r *Root) Mkfifo(p string) error { return r.create("mkfifo", p, r.mkfifo) }

// RemoveAll removes p and, for a directory, everything below it, without
// following a link at p or below; a missing p (or parent) is no error.
func (r *Root) RemoveAll(p string) error {
	c, err := r.resolve("remove", p, false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := r.root.RemoveAll(c); err != nil {
		return &Error{Op: "remove", Path: p, Err: err}
	}
	return nil
}

// Lstat describes the entry at p without following a link there.
func (r *Root) Lstat(p string) (fs.FileInfo, error) {
	c, err := r.resolve("lstat", p, false)
	if err != nil {
		return nil, err
	}
	st, err := r.root.Lstat(c)
	if err != nil {
		return nil, &Error{Op: "lstat", Path: p, Err: err}
	}
	return st, nil
}

// Readlink returns the target of the symbolic link at p.
func (r *Root) Readlink(p string) (string, error) {
	c, err := r.resolve("readlink", p, false)
	if err != nil {
		return "", err
	}
	t, err := r.root.Readlink(c)
	if err != nil {
		return "", &Error{Op: "readlink", Path: p, Err: err}
	}
	return t, nil
}

// ReadFile reads the regular file at p, at most max bytes: a larger file
// is [ErrTooLarge] before any of it is read. A link at p is [ErrLink]
// (read its target with Readlink); a directory, FIFO or other entry is an
// error, and opening never blocks on one swapped in after the check.
func (r *Root) ReadFile(p string, max int64) ([]byte, error) {
	c, err := r.resolve("read", p, false)
	if err != nil {
		return nil, err
	}
	fail := func(err error) ([]byte, error) { return nil, &Error{Op: "read", Path: p, Err: err} }
	st, err := r.root.Lstat(c)
	if err != nil {
		return fail(err)
	}
	if st.Mode()&fs.ModeSymlink != 0 {
		return fail(fmt.Errorf("%q is a symbolic link: %w", c, ErrLink))
	}
	if !st.Mode().IsRegular() {
		return fail(fmt.Errorf("%q is a %s, not a regular file", c, Kind(st.Mode())))
	}
	if st.Size() > max {
		return fail(fmt.Errorf("%d bytes, over %d: %w", st.Size(), max, ErrTooLarge))
	}
	f, err := r.root.OpenFile(c, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return fail(err)
	}
	defer f.Close()
	if now, err := f.Stat(); err != nil || !os.SameFile(st, now) {
		return fail(fmt.Errorf("%q changed while it was read", c))
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return fail(err)
	}
	if int64(len(data)) > max {
		return fail(fmt.Errorf("over %d bytes: %w", max, ErrTooLarge))
	}
	return data, nil
}

// Kind names the kind of an entry of mode m: "file", "directory",
// "symlink" or "other".
func Kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "file"
	case m.IsDir():
		return "directory"
	case m&fs.ModeSymlink != 0:
		return "symlink"
	}
	return "other"
}
