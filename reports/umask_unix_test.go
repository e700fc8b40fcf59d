//go:build unix

package reports

import (
	"path/filepath"
	"syscall"
	"testing"
)

// A new report file is created with 0644 less the process umask, so that
// a later CI step running as another user can read it when the umask
// allows; a file that exists keeps its permission bits.
func TestReportFilesFollowTheUmask(t *testing.T) {
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)
	dir := t.TempDir()
	d := &Document{SchemaVersion: SchemaVersion, Kind: KindCertify, Items: []Item{}}
	doc, md := filepath.Join(dir, "conform.json"), filepath.Join(dir, "conform.md")
	if err := WriteFile(doc, d); err != nil {
		t.Fatal(err)
	}
	if err := WriteRendered(md, RenderMarkdown, d); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{doc, md} {
		if got := mode(t, p).Perm(); got != 0o640 {
			t.Errorf("%s: mode %o, want 0640 (0644 less umask 027)", filepath.Base(p), got)
		}
	}
	syscall.Umask(0o022)
	if err := WriteFile(filepath.Join(dir, "other.json"), d); err != nil {
		t.Fatal(err)
	}
	if got := mode(t, filepath.Join(dir, "other.json")).Perm(); got != 0o644 {
		t.Errorf("other.json: mode %o, want 0644 (umask 022)", got)
	}
}
