//go:build darwin || linux

package workspace

import (
	"io/fs"
	"syscall"
)

// metaOf returns the identity and raw metadata of an lstat result.
func metaOf(fi fs.FileInfo) fileMeta {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return portableMeta(fi)
	}
	return fileMeta{dev: uint64(st.Dev), ino: st.Ino, mode: uint32(st.Mode), ctimeNs: ctimeNs(st)}
}
