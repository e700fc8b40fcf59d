//go:build !windows

package workspace

import "os"

// syncDir flushes a directory entry change to disk; failures are ignored
// because the rename or link has already committed.
func syncDir(dir string) {
	f, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = f.Sync()
	_ = f.Close()
}
