package golden_test

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/galaxy-stack/conform/internal/wsfs"
	"github.com/galaxy-stack/conform/matrix/golden"
	"github.com/galaxy-stack/conform/matrix/replay"
)

// TestWriteFollowsNoLink points golden/scenarios of a root at a directory
// outside it: Write refuses, and the file there is unchanged.
func TestWriteFollowsNoLink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	parent := t.TempDir()
	root, outside := filepath.Join(parent, "repo"), filepath.Join(parent, "outside")
	for _, d := range []string{filepath.Join(root, "golden"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	victim := filepath.Join(outside, "x.json")
	if err := os.WriteFile(victim, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../../outside", filepath.Join(root, "golden", "scenarios")); err != nil {
		t.Fatal(err)
	}
	s := golden.Scenario{Path: "fixtures/scenarios/x.txtar", Golden: golden.GoldenPath("fixtures/scenarios/x.txtar")}
	err := golden.Write(root, s, &replay.Transcript{})
	if !errors.Is(err, wsfs.ErrLink) {
		t.Errorf("Write through golden/scenarios -> outside = %v, want a refused link", err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "precious\n" {
		t.Errorf("the file outside the root holds %q, want it unchanged", b)
	}
	if _, err := golden.Read(root, s); !errors.Is(err, wsfs.ErrLink) {
		t.Errorf("Read through golden/scenarios -> outside = %v, want a refused link", err)
	}

	// A link at the golden file itself is replaced, not followed.
	if err := os.Remove(filepath.Join(root, "golden", "scenarios")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, "golden", "scenarios"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(root, "golden", "scenarios", "x.json")); err != nil {
		t.Fatal(err)
	}
	if err := golden.Write(root, s, &replay.Transcript{}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "precious\n" {
		t.Errorf("the file outside the root holds %q, want it unchanged", b)
	}
	if st, err := os.Lstat(filepath.Join(root, "golden", "scenarios", "x.json")); err != nil || !st.Mode().IsRegular() {
		t.Errorf("golden/scenarios/x.json: %v, %v; want a regular file", st, err)
	}
}
