package wsfs

import (
	"fmt"
	"os"
	"path"

	"golang.org/x/sys/unix"
)

// mkfifo makes the FIFO c relative to its parent directory, opened
// through the root and checked to be the directory Lstat saw.
func (r *Root) mkfifo(c string) error {
	dir, base := path.Split(c)
	if dir == "" {
		dir = "."
	}
	want, err := r.root.Lstat(dir)
	if err != nil {
		return err
	}
	d, err := r.root.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if got, err := d.Stat(); err != nil || !os.SameFile(want, got) {
		return fmt.Errorf("%q changed while the FIFO was made", dir)
	}
	return unix.Mkfifoat(int(d.Fd()), base, 0o644)
}
