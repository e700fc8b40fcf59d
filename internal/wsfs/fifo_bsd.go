//go:build unix && !linux

package wsfs

import (
	"path/filepath"
	"syscall"
)

// mkfifo makes the FIFO c by its path: the parents were checked just
// before, and these systems have no mkfifoat in golang.org/x/sys.
func (r *Root) mkfifo(c string) error {
	return syscall.Mkfifo(filepath.Join(r.root.Name(), filepath.FromSlash(c)), 0o644)
}
