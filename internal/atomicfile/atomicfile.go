// Package atomicfile writes a file so that a reader sees either the old
// content or the new, never a part of it, and so that a path that is not a
// regular file (a FIFO, a device node, a directory, a symbolic link) is
// never replaced.
//
//	if err := atomicfile.Check(path); err != nil { ... } // before the work
//	...
//	err := atomicfile.WriteFile(path, data, 0o644)
//
// It follows go-internal's renameio discipline: the data goes to a
// temporary file in the target's directory, which is synced, closed and
// renamed over the target; the temporary file is removed only when a step
// fails, since after a successful rename its name may already belong to
// someone else's file. [WriteFileIn] takes the same steps inside an
// [os.Root], for package wsfs's workspace and golden writes: every file
// conform writes goes through the one implementation.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
)

// Check reports whether [WriteFile] can write path, without writing it:
// path must be absent or a regular file, and its directory must exist and
// let a file be created in it (Check creates and removes one). Run it
// before the work whose result will be written, so that a bad path is
// found at once rather than after the work.
func Check(path string) error {
	if path == "" {
		return errors.New("no file named")
	}
	if err := checkTarget(path); err != nil {
		return err
	}
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("directory %s does not exist; create it first", dir)
	case err != nil:
		return err
	case !st.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	}
	f, name, err := createTemp(hostDir{}, path, 0o600)
	if err != nil {
		return fmt.Errorf("cannot create a file in %s: %w", dir, err)
	}
	f.Close()
	return os.Remove(name)
}

// checkTarget refuses a path that exists and is not a regular file.
func checkTarget(path string) error {
	st, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if st.Mode().IsRegular() {
		return nil
	}
	return &NotRegularError{Path: path, Mode: st.Mode()}
}

// NotRegularError is the error of a path that exists and is not a regular
// file: conform writes regular files only, and never replaces anything
// else.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file; name a regular file or a new path", e.Path, kind(e.Mode))
}

// kind names the type of a file mode, with its article.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "a special file"
}

// WriteFile writes data to path atomically. A new file gets perm (less
// the umask); a file that exists keeps its permission bits. A path that
// exists and is not a regular file is refused with a [*NotRegularError].
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	return Write(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Write is [WriteFile] for content that is produced rather than held:
// write writes it to the temporary file, and an error from write leaves
// path as it was.
func Write(path string, perm fs.FileMode, write func(io.Writer) error) error {
	return writeIn(hostDir{}, path, perm, false, write)
}

// WriteFileIn writes data to name, a path relative to root, atomically,
// with the steps of [WriteFile]: the operations go through root, so
// nothing outside it is written. Unlike WriteFile it replaces whatever
// entry other than a directory is at name (a symbolic link is replaced,
// never followed), and the file gets exactly perm (the umask does not
// apply): the caller (package wsfs, for a workspace) owns every entry
// under root. The parent directory must exist.
func WriteFileIn(root *os.Root, name string, data []byte, perm fs.FileMode) error {
	return writeIn(root, name, perm, true, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// A dir is where a write happens: the file system, paths as given
// (hostDir), or an *os.Root, paths relative to it.
type dir interface {
	OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error)
	Open(name string) (*os.File, error)
	Lstat(name string) (fs.FileInfo, error)
	Rename(oldname, newname string) error
	Remove(name string) error
}

// hostDir is the file system, paths as given.
type hostDir struct{}

func (hostDir) OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(name, flag, perm)
}
func (hostDir) Open(name string) (*os.File, error)     { return os.Open(name) }
func (hostDir) Lstat(name string) (fs.FileInfo, error) { return os.Lstat(name) }
func (hostDir) Rename(oldname, newname string) error   { return os.Rename(oldname, newname) }
func (hostDir) Remove(name string) error               { return os.Remove(name) }

// writeIn is the one implementation of the steps: a temporary file
// beside path, written, synced, closed and renamed over path, the
// directory synced; the temporary file is removed only when a step fails.
// With replace, whatever is at path (but a directory, which the rename
// refuses) is replaced and the file gets exactly perm; without, a path
// that is not a regular file is refused and an existing file keeps its
// permission bits.
func writeIn(d dir, path string, perm fs.FileMode, replace bool, write func(io.Writer) error) (err error) {
	check := func() error {
		if replace {
			return nil
		}
		return checkTarget(path)
	}
	if err := check(); err != nil {
		return err
	}
	f, tmp, err := createTemp(d, path, perm)
	if err != nil {
		return err
	}
	defer func() {
		// Only a temporary file that was not renamed is ours to remove:
		// after the rename its name may belong to another file.
		if err != nil {
			f.Close()
			d.Remove(tmp)
		}
	}()
	// The file gets exactly perm with replace, or the permission bits of
	// the file it replaces; a new one perm less the umask.
	mode, chmod := perm, replace
	if st, err := d.Lstat(path); err == nil && !replace {
		mode, chmod = st.Mode().Perm(), true
	}
	if chmod {
		if err := f.Chmod(mode); err != nil {
			return err
		}
	}
	if err := write(f); err != nil {
		return err
	}
	// Sync before the rename, so that after a crash a reader finds the old
	// file or the new one, not an empty one (golang.org/issue/22397).
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := check(); err != nil {
		return err // it became something else while we wrote
	}
	if err := d.Rename(tmp, path); err != nil {
		return err
	}
	if afterRename != nil {
		afterRename(tmp)
	}
	syncDir(d, filepath.Dir(path))
	return nil
}

// afterRename, when a test sets it, is called with the temporary file's
// name right after the rename.
var afterRename func(tmp string)

// createTemp creates a new file of d beside path, named after it, with
// perm (less the umask).
func createTemp(d dir, path string, perm fs.FileMode) (*os.File, string, error) {
	dir, base := filepath.Split(path)
	for range 100 {
		name := filepath.Join(dir, "."+base+"."+strconv.FormatUint(rand.Uint64(), 36)+".tmp")
		f, err := d.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, name, err
	}
	return nil, "", fmt.Errorf("cannot create a temporary file beside %s", path)
}

// syncDir makes the rename durable where a directory can be synced; a
// failure there leaves the new file in place, so it is not an error.
func syncDir(d dir, name string) {
	if runtime.GOOS == "windows" {
		return
	}
	if f, err := d.Open(name); err == nil {
		_ = f.Sync()
		f.Close()
	}
}
