package filehash

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSHA256(t *testing.T) {
	path := filepath.Join(t.TempDir(), "abc")
	if err := os.WriteFile(path, []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	const want = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
	if got, err := SHA256(path); err != nil || got != want {
		t.Errorf("SHA256 = %q, %v; want %q", got, err, want)
	}
	if _, err := SHA256(filepath.Join(t.TempDir(), "missing")); !os.IsNotExist(err) {
		t.Errorf("a missing file: err = %v, want one that is not-exist", err)
	}
}
