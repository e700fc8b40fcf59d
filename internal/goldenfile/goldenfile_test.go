package goldenfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "testdata", "table.golden")
	const rewrite = "go test ./x -update"
	if err := Check(path, "a\n", rewrite); err == nil || !strings.Contains(err.Error(), rewrite) {
		t.Fatalf("missing golden file: err = %v, want one naming %q", err, rewrite)
	}
	*update = true
	err := Check(path, "a\n", rewrite)
	*update = false
	if err != nil {
		t.Fatalf("update: %v", err)
	}
	if data, err := os.ReadFile(path); err != nil || string(data) != "a\n" {
		t.Fatalf("after update the file holds %q, %v; want %q", data, err, "a\n")
	}
	if err := Check(path, "a\n", rewrite); err != nil {
		t.Fatalf("same content: %v", err)
	}
	err = Check(path, "b\n", rewrite)
	if err == nil || !strings.Contains(err.Error(), `"a\n"`) || !strings.Contains(err.Error(), `"b\n"`) {
		t.Fatalf("changed content: err = %v, want a diff of a and b", err)
	}
}
