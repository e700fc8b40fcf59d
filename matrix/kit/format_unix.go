//go:build !windows

package kit

import (
	"fmt"
	"io/fs"
	"syscall"
)

// inode is "/<inode number>" of fi.
func inode(fi fs.FileInfo) string {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return fmt.Sprintf("/%d", st.Ino)
	}
	return ""
}
