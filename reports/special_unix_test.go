//go:build unix

package reports

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestReportsNeverReplaceASpecialFile checks that a report path naming a
// FIFO, a symbolic link or a device node is refused by CheckWritable and
// by every writer, and stays what it was.
func TestReportsNeverReplaceASpecialFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(filepath.Join(dir, "target.json"), link); err != nil {
		t.Fatal(err)
	}
	d := &Document{SchemaVersion: SchemaVersion, Items: []Item{{ID: 1, Status: Passed}}}
	for path, want := range map[string]string{fifo: "named pipe", link: "symbolic link"} {
		before := mode(t, path).Type()
		for name, err := range map[string]error{
			"CheckWritable": CheckWritable(path),
			"WriteFile":     WriteFile(path, d),
			"WriteJSON":     WriteJSON(path, d),
			"WriteRendered": WriteRendered(path, RenderMarkdown, d),
		} {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s(%s) = %v, want a refusal naming the %s", name, path, err, want)
			}
		}
		if got := mode(t, path).Type(); got != before {
			t.Errorf("%s is now %v, was %v", path, got, before)
		}
	}
	if _, err := os.Stat("/dev/null"); err == nil {
		if err := CheckWritable("/dev/null"); err == nil || !strings.Contains(err.Error(), "device") {
			t.Errorf("CheckWritable(/dev/null) = %v, want a refusal naming the device", err)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("the directory holds %d entries, want the fifo and the link only", len(entries))
	}
}

// mode returns the mode of the entry at path, not following a link there.
func mode(t *testing.T, path string) fs.FileMode {
	t.Helper()
	st, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Mode()
}
