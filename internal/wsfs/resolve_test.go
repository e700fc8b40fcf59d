package wsfs

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestResolve(t *testing.T) {
	r, ws, _ := setup(t)
	if err := os.MkdirAll(filepath.Join(ws, "d", "e"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "d", "e", "f.txt"), []byte("f"), 0o644); err != nil {
		t.Fatal(err)
	}
	symlink(t, "d", filepath.Join(ws, "dl"))
	symlink(t, "e/f.txt", filepath.Join(ws, "d", "fl"))
	symlink(t, "../outside/keep.txt", filepath.Join(ws, "out"))
	symlink(t, "..", filepath.Join(ws, "up"))
	symlink(t, "up/outside", filepath.Join(ws, "via"))
	symlink(t, filepath.Join(ws, "d"), filepath.Join(ws, "abs"))
	symlink(t, "loop", filepath.Join(ws, "loop"))
	symlink(t, ".git", filepath.Join(ws, "g"))
	for p, want := range map[string]string{
		"d/e/f.txt": "d/e/f.txt", "dl/e/f.txt": "d/e/f.txt", "dl/fl": "d/e/f.txt",
		"d/fl": "d/e/f.txt", "missing/x": "missing/x", "dl/missing": "d/missing",
	} {
		if got, err := r.Resolve(p); err != nil || got != want {
			t.Errorf("Resolve(%q) = %q, %v; want %q", p, got, err, want)
		}
	}
	for p, link := range map[string]string{"out": "out", "up/outside/keep.txt": "up", "via/keep.txt": "up", "abs/e": "abs"} {
		_, err := r.Resolve(p)
		var esc *EscapeError
		if !errors.As(err, &esc) || esc.Link != link {
			t.Errorf("Resolve(%q) = %v; want an escape through %q", p, err, link)
		}
	}
	if _, err := r.Resolve("loop"); err == nil {
		t.Error("Resolve of a link loop succeeded")
	}
	if _, err := r.Resolve("g/config"); !errors.Is(err, ErrGit) {
		t.Errorf("Resolve(g/config) = %v, want ErrGit", err)
	}
}
