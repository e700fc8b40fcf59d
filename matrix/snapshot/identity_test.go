package snapshot

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

func TestIdentitiesTellReplacedFromRewritten(t *testing.T) {
	root := t.TempDir()
	write := func(p, s string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.txt", "a")
	write("b.txt", "b")
	ids, err := TakeIdentities(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	write("a.txt", "A") // rewritten in place: same inode
	write("b.tmp", "b")
	if err := os.Rename(filepath.Join(root, "b.tmp"), filepath.Join(root, "b.txt")); err != nil {
		t.Fatal(err)
	}
	if same, err := ids.SameFile(root, "a.txt"); err != nil || !same {
		t.Errorf("a.txt rewritten in place: same=%v err=%v, want the same file", same, err)
	}
	if same, err := ids.SameFile(root, "b.txt"); err != nil || same {
		t.Errorf("b.txt replaced by a rename: same=%v err=%v, want another file", same, err)
	}
	if _, err := ids.SameFile(root, "c.txt"); err == nil {
		t.Error("an unrecorded path has an identity")
	}
}
