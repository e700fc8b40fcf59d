package snapshot

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/galaxy-stack/conform/core/effects"
)

func TestTakeAndDiff(t *testing.T) {
	root := t.TempDir()
	write := func(p, s string) {
		t.Helper()
		abs := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.txt", "one")
	write("dir/b.txt", "two")
	write(".git/HEAD", "ignored")
	before, err := Take(root)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a.txt", "dir", "dir/b.txt"}
	if len(before) != len(want) {
		t.Fatalf("snapshot %+v, want paths %v", before, want)
	}
	for i, p := range want {
		if before[i].Path != p {
			t.Errorf("entry %d is %q, want %q (sorted, .git skipped)", i, before[i].Path, p)
		}
	}
	if before[0].Kind != effects.KindFile || before[0].Hash != hashBytes([]byte("one")) {
		t.Errorf("a.txt = %+v, want a file hashed by content", before[0])
	}
	if before[1].Kind != effects.KindDirectory || before[1].Hash != "" {
		t.Errorf("dir = %+v, want an unhashed directory", before[1])
	}

	write("a.txt", "changed")
	if err := os.Remove(filepath.Join(root, "dir", "b.txt")); err != nil {
		t.Fatal(err)
	}
	write("new.txt", "fresh")
	if runtime.GOOS != "windows" {
		if err := os.Symlink("a.txt", filepath.Join(root, "link")); err != nil {
			t.Fatal(err)
		}
	}
	after, err := Take(root)
	if err != nil {
		t.Fatal(err)
	}
	changes := Diff(before, after)
	got := map[string][2]string{}
	for _, c := range changes {
		got[c.Path] = [2]string{c.Before.Kind, c.After.Kind}
	}
	wantChanges := map[string][2]string{
		"a.txt":     {effects.KindFile, effects.KindFile},
		"dir/b.txt": {effects.KindFile, effects.KindMissing},
		"new.txt":   {effects.KindMissing, effects.KindFile},
	}
	if runtime.GOOS != "windows" {
		wantChanges["link"] = [2]string{effects.KindMissing, effects.KindSymlink}
	}
	if len(got) != len(wantChanges) {
		t.Fatalf("Diff = %+v, want %v", changes, wantChanges)
	}
	for p, k := range wantChanges {
		if got[p] != k {
			t.Errorf("change of %q = %v, want %v", p, got[p], k)
		}
	}
	if len(Diff(after, after)) != 0 {
		t.Error("a snapshot differs from itself")
	}
}
