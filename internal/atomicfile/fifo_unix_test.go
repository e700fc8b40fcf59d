//go:build unix

package atomicfile

import (
	"path/filepath"
	"syscall"
	"testing"
)

// mkfifo makes a named pipe in dir and returns its path.
func mkfifo(t *testing.T, dir string) string {
	p := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
