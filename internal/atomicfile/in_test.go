package atomicfile

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// openRoot makes a directory with a sub directory and returns it opened
// as a root.
func openRoot(t *testing.T) (*os.Root, string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r, dir
}

func TestWriteFileInReplacesAndSetsExactlyPerm(t *testing.T) {
	r, dir := openRoot(t)
	old := filepath.Join(dir, "sub", "f.txt")
	if err := os.WriteFile(old, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileIn(r, "sub/f.txt", []byte("new"), 0o664); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(old)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(old); string(b) != "new" {
		t.Errorf("content = %q, want \"new\"", b)
	}
	if runtime.GOOS != "windows" && st.Mode().Perm() != 0o664 {
		t.Errorf("mode %v, want exactly 0664 whatever the umask and the old file", st.Mode().Perm())
	}
	onlyEntries(t, filepath.Join(dir, "sub"), "f.txt")
}

// TestWriteFileInReplacesALinkNeverItsTarget: a symbolic link at the name
// is replaced by the file; the file it pointed to, outside the root, is
// untouched.
func TestWriteFileInReplacesALinkNeverItsTarget(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	r, dir := openRoot(t)
	outside := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(outside, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "sub", "f.txt")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileIn(r, "sub/f.txt", []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || !st.Mode().IsRegular() {
		t.Errorf("the link was not replaced by a regular file: %v, %v", st, err)
	}
	if b, _ := os.ReadFile(outside); string(b) != "keep" {
		t.Errorf("the link's target was written: %q", b)
	}
}

// TestWriteFileInKeepsTheTemporaryNameAfterRename is the renameio
// discipline for a root: once renamed, the temporary name is not removed.
func TestWriteFileInKeepsTheTemporaryNameAfterRename(t *testing.T) {
	r, dir := openRoot(t)
	var reused string
	afterRename = func(tmp string) {
		reused = filepath.Join(dir, tmp)
		if err := os.WriteFile(reused, []byte("someone else's"), 0o644); err != nil {
			t.Error(err)
		}
	}
	t.Cleanup(func() { afterRename = nil })
	if err := WriteFileIn(r, "sub/f.txt", []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(reused); err != nil || string(b) != "someone else's" {
		t.Errorf("the file created under the renamed temporary name is gone: %q, %v", b, err)
	}
}

func TestWriteFileInFailureLeavesNoTemporaryFile(t *testing.T) {
	r, dir := openRoot(t)
	if err := WriteFileIn(r, "sub", []byte("x"), 0o644); err == nil {
		t.Error("WriteFileIn over a directory succeeded")
	}
	if err := WriteFileIn(r, "../escape.txt", []byte("x"), 0o644); err == nil {
		t.Error("WriteFileIn outside the root succeeded")
	}
	onlyEntries(t, dir, "sub")
	onlyEntries(t, filepath.Join(dir, "sub"))
}
