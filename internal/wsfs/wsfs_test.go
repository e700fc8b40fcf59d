package wsfs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// setup makes parent/ws (the root) and parent/outside holding keep.txt,
// and returns the open root and the outside directory.
func setup(t *testing.T) (*Root, string, string) {
	t.Helper()
	parent := t.TempDir()
	ws, out := filepath.Join(parent, "ws"), filepath.Join(parent, "outside")
	for _, d := range []string{ws, out} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(out, "keep.txt"), []byte("outside\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Open(ws)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r, ws, out
}

// outsideUntouched fails unless out holds keep.txt alone, unchanged.
func outsideUntouched(t *testing.T, out string) {
	t.Helper()
	ents, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 1 || ents[0].Name() != "keep.txt" {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("outside directory holds %q, want only keep.txt", names)
	}
	if b, err := os.ReadFile(filepath.Join(out, "keep.txt")); err != nil || string(b) != "outside\n" {
		t.Errorf("outside keep.txt = %q, %v; want it unchanged", b, err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// ops are the operations of a Root that write or read a scenario path.
var ops = map[string]func(r *Root, p string) error{
	"WriteFile": func(r *Root, p string) error { return r.WriteFile(p, []byte("x"), 0o644) },
	"Mkdir":     func(r *Root, p string) error { return r.Mkdir(p) },
	"MkdirAll":  func(r *Root, p string) error { return r.MkdirAll(p) },
	"Symlink":   func(r *Root, p string) error { return r.Symlink("somewhere", p) },
	"Mkfifo":    func(r *Root, p string) error { return r.Mkfifo(p) },
	"RemoveAll": func(r *Root, p string) error { return r.RemoveAll(p) },
	"ReadFile":  func(r *Root, p string) error { _, err := r.ReadFile(p, 1<<20); return err },
	"Lstat":     func(r *Root, p string) error { _, err := r.Lstat(p); return err },
}

func TestSymlinkedParentIsRefused(t *testing.T) {
	for name, op := range ops {
		t.Run(name, func(t *testing.T) {
			r, ws, out := setup(t)
			symlink(t, "../outside", filepath.Join(ws, "l")) // relative, like a fixture's entry
			for _, p := range []string{"l/keep.txt", "l/new/deeper"} {
				err := op(r, p)
				if !errors.Is(err, ErrLink) {
					t.Errorf("%s(%q) = %v, want ErrLink", name, p, err)
				}
			}
			outsideUntouched(t, out)
		})
	}
}

func TestInsideLinkParentIsRefusedToo(t *testing.T) {
	r, ws, _ := setup(t)
	if err := os.Mkdir(filepath.Join(ws, "real"), 0o755); err != nil {
		t.Fatal(err)
	}
	symlink(t, "real", filepath.Join(ws, "alias"))
	if err := r.WriteFile("alias/f", []byte("x"), 0o644); !errors.Is(err, ErrLink) {
		t.Errorf("write through a link that stays inside = %v, want ErrLink", err)
	}
}

func TestGitAliasIsRefused(t *testing.T) {
	for name, op := range ops {
		t.Run(name, func(t *testing.T) {
			r, ws, _ := setup(t)
			if err := os.MkdirAll(filepath.Join(ws, ".git"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(ws, ".git", "config"), []byte("[core]\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			symlink(t, ".git", filepath.Join(ws, "g"))
			if err := op(r, "g/config"); !errors.Is(err, ErrLink) {
				t.Errorf("%s(g/config) = %v, want ErrLink", name, err)
			}
			for _, p := range []string{".git/config", "a/.GIT/hooks/x", ".git"} {
				if err := op(r, p); !errors.Is(err, ErrGit) {
					t.Errorf("%s(%q) = %v, want ErrGit", name, p, err)
				}
			}
			if b, _ := os.ReadFile(filepath.Join(ws, ".git", "config")); string(b) != "[core]\n" {
				t.Errorf(".git/config = %q, want it unchanged", b)
			}
		})
	}
}

func TestBadPathsAreRefused(t *testing.T) {
	r, _, _ := setup(t)
	for _, p := range []string{"", ".", "..", "../x", "a/../../x", "/etc/passwd", "a\\b", "a\x00b", "C:x"} {
		if err := r.WriteFile(p, nil, 0o644); !errors.Is(err, ErrPath) {
			t.Errorf("WriteFile(%q) = %v, want ErrPath", p, err)
		}
	}
}

// TestLinkSwappedAfterTheCheck swaps a checked parent directory for a link
// to the outside directory between the check and the write: the write
// fails or lands inside, never outside.
func TestLinkSwappedAfterTheCheck(t *testing.T) {
	for name, op := range ops {
		t.Run(name, func(t *testing.T) {
			r, ws, out := setup(t)
			if err := os.MkdirAll(filepath.Join(ws, "d", "sub"), 0o755); err != nil {
				t.Fatal(err)
			}
			testHookChecked = func(string) {
				if err := os.Rename(filepath.Join(ws, "d"), filepath.Join(ws, "moved")); err != nil {
					t.Error(err)
				}
				symlink(t, filepath.Join("..", "outside"), filepath.Join(ws, "d"))
			}
			t.Cleanup(func() { testHookChecked = nil })
			_ = op(r, "d/keep.txt")
			outsideUntouched(t, out)
		})
	}
}

func TestFinalLinkIsReplacedNotFollowed(t *testing.T) {
	r, ws, out := setup(t)
	symlink(t, "../outside/keep.txt", filepath.Join(ws, "f"))
	if err := r.WriteFile("f", []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(filepath.Join(ws, "f")); err != nil || !st.Mode().IsRegular() {
		t.Errorf("f after the write: %v, %v; want a regular file", st, err)
	}
	symlink(t, "../outside", filepath.Join(ws, "dirlink"))
	if err := r.RemoveAll("dirlink"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(ws, "dirlink")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("dirlink after RemoveAll: %v, want it gone", err)
	}
	outsideUntouched(t, out)
}

func TestReadFileReportsTheLink(t *testing.T) {
	r, ws, _ := setup(t)
	symlink(t, "../outside/keep.txt", filepath.Join(ws, "secret"))
	data, err := r.ReadFile("secret", 1<<20)
	if !errors.Is(err, ErrLink) || data != nil {
		t.Errorf("ReadFile(secret) = %q, %v; want ErrLink and nothing read", data, err)
	}
	if target, err := r.Readlink("secret"); err != nil || target != "../outside/keep.txt" {
		t.Errorf("Readlink = %q, %v", target, err)
	}
}

// TestReadFileCap reads a sparse file far over the cap: refused from its
// size, nothing read.
func TestReadFileCap(t *testing.T) {
	r, ws, _ := setup(t)
	big := filepath.Join(ws, "big")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(64 << 30); err != nil {
		f.Close()
		t.Skipf("no sparse files here: %v", err)
	}
	f.Close()
	if _, err := r.ReadFile("big", 1<<20); !errors.Is(err, ErrTooLarge) {
		t.Errorf("ReadFile of 64 GiB with a 1 MiB cap = %v, want ErrTooLarge", err)
	}
	if err := os.WriteFile(filepath.Join(ws, "small"), []byte("12345"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := r.ReadFile("small", 4); !errors.Is(err, ErrTooLarge) {
		t.Errorf("ReadFile of 5 bytes with a cap of 4 = %v, want ErrTooLarge", err)
	}
	if b, err := r.ReadFile("small", 5); err != nil || string(b) != "12345" {
		t.Errorf("ReadFile of 5 bytes with a cap of 5 = %q, %v", b, err)
	}
}

func TestWriteMakesParentsAndKeepsMode(t *testing.T) {
	r, ws, _ := setup(t)
	if err := r.WriteFile("a/b/c.txt", []byte("hi"), 0o640); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(ws, "a", "b", "c.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && st.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640", st.Mode().Perm())
	}
	if err := r.MkdirAll("a/b"); err != nil {
		t.Errorf("MkdirAll of an existing directory: %v", err)
	}
	if err := r.MkdirAll("a/b/c.txt"); err == nil {
		t.Error("MkdirAll over a file succeeded")
	}
	if err := r.WriteFile("a", nil, 0o644); err == nil {
		t.Error("WriteFile over a directory succeeded")
	}
}

// BenchmarkWriteFile writes new small files three directories deep, the
// cost of arranging one initial file.
func BenchmarkWriteFile(b *testing.B) {
	r, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	i := 0
	for b.Loop() {
		i++
		if err := r.WriteFile(fmt.Sprintf("a/b/%d/f%d.txt", i%100, i), []byte("content\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}
