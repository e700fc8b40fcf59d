//go:build !windows

package snapshot

import (
	"io/fs"
	"syscall"
)

// openFlags open a file to hash without blocking on a FIFO or following a
// link swapped in at its name.
const openFlags = syscall.O_NONBLOCK | syscall.O_NOFOLLOW

// allocated returns the bytes st's file occupies on disk, where the
// platform says.
func allocated(st fs.FileInfo) (int64, bool) {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return int64(s.Blocks) * 512, true
	}
	return 0, false
}
