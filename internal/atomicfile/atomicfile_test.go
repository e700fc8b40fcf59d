package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestWriteFileReplacesAtomically(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.json")
	if err := WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "new" {
		t.Errorf("content = %q, %v; want \"new\"", b, err)
	}
	onlyEntries(t, dir, "out.json")
}

func TestWriteFileRelativePath(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := WriteFile("out.md", []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	onlyEntries(t, ".", "out.md")
}

func TestWriteFilePermissions(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix permission bits")
	}
	dir := t.TempDir()
	fresh := filepath.Join(dir, "fresh")
	if err := WriteFile(fresh, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(fresh); st.Mode().Perm()&0o077 != 0 {
		t.Errorf("a new file written with 0600 has mode %v", st.Mode())
	}
	kept := filepath.Join(dir, "kept")
	if err := os.WriteFile(kept, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(kept, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(kept, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(kept); st.Mode().Perm() != 0o640 {
		t.Errorf("a replaced file has mode %v, want its old -rw-r-----", st.Mode())
	}
}

// TestWriteKeepsTheTemporaryNameAfterRename checks the renameio
// discipline: once renamed, the temporary file's name is no longer ours,
// and a file created under it meanwhile must survive.
func TestWriteKeepsTheTemporaryNameAfterRename(t *testing.T) {
	dir := t.TempDir()
	var reused string
	afterRename = func(tmp string) {
		reused = tmp
		if err := os.WriteFile(tmp, []byte("someone else's"), 0o644); err != nil {
			t.Error(err)
		}
	}
	t.Cleanup(func() { afterRename = nil })
	if err := WriteFile(filepath.Join(dir, "out.json"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(reused); err != nil || string(b) != "someone else's" {
		t.Errorf("the file created under the renamed temporary name is gone: %q, %v", b, err)
	}
}

func TestWriteFailureLeavesTargetAndNoTemporaryFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.json")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("render failed")
	err := Write(path, 0o644, func(w io.Writer) error {
		io.WriteString(w, "partial")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Write = %v, want the write function's error", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("a failed write changed the target to %q", b)
	}
	onlyEntries(t, dir, "out.json")
	if err := WriteFile(filepath.Join(dir, "no", "out.json"), nil, 0o644); err == nil {
		t.Error("WriteFile into a missing directory succeeded")
	}
}

func TestWriteRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	targets := map[string]fs.FileMode{sub: fs.ModeDir}
	if runtime.GOOS != "windows" {
		link := filepath.Join(dir, "link")
		if err := os.Symlink("elsewhere", link); err != nil {
			t.Fatal(err)
		}
		targets[link] = fs.ModeSymlink
		if fifo := mkfifo(t, dir); fifo != "" {
			targets[fifo] = fs.ModeNamedPipe
		}
	}
	for path, mode := range targets {
		for _, err := range []error{WriteFile(path, []byte("x"), 0o644), Check(path)} {
			var nr *NotRegularError
			if !errors.As(err, &nr) || !strings.Contains(err.Error(), path) {
				t.Errorf("writing %s: %v, want a NotRegularError naming it", path, err)
			}
		}
		st, err := os.Lstat(path)
		if err != nil || st.Mode().Type() != mode {
			t.Errorf("%s is now %v (%v), want it untouched (%v)", path, st.Mode(), err, mode)
		}
	}
	if runtime.GOOS == "linux" {
		err := Check("/dev/null")
		if err == nil || !strings.Contains(err.Error(), "character device") {
			t.Errorf("Check(/dev/null) = %v, want a refusal naming the character device", err)
		}
	}
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	if err := Check(filepath.Join(dir, "out.json")); err != nil {
		t.Errorf("Check of a new file: %v", err)
	}
	existing := filepath.Join(dir, "old.json")
	if err := os.WriteFile(existing, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Check(existing); err != nil {
		t.Errorf("Check of a regular file: %v", err)
	}
	onlyEntries(t, dir, "old.json")
	if err := Check(filepath.Join(dir, "no", "out.json")); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("Check in a missing directory = %v", err)
	}
	if err := Check(filepath.Join(existing, "out.json")); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("Check under a file = %v", err)
	}
	if os.Geteuid() != 0 && runtime.GOOS != "windows" {
		ro := filepath.Join(dir, "ro")
		if err := os.Mkdir(ro, 0o555); err != nil {
			t.Fatal(err)
		}
		if err := Check(filepath.Join(ro, "out.json")); err == nil {
			t.Error("Check in a read-only directory succeeded")
		}
	}
}

// onlyEntries fails unless dir holds exactly names.
func onlyEntries(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if strings.Join(got, " ") != strings.Join(names, " ") {
		t.Errorf("%s holds %q, want %q (no temporary file left)", dir, got, names)
	}
}
