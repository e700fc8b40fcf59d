package workspace

import (
	"io/fs"
	"os"
)

// fileMeta is the raw metadata the snapshotter and the verifier bind:
// device and inode identity, the full mode (st_mode where available) and
// the change time.
type fileMeta struct {
	dev, ino uint64
	mode     uint32
	ctimeNs  int64
}

func portableMeta(fi fs.FileInfo) fileMeta {
	return fileMeta{mode: uint32(fi.Mode()), ctimeNs: fi.ModTime().UnixNano()}
}

// stable reports whether two lstat results of one path show the same
// entry, unchanged: same identity, mode, size, modification and change
// time.
func stable(a, b fs.FileInfo) bool {
	return os.SameFile(a, b) && a.Mode() == b.Mode() && a.Size() == b.Size() &&
		a.ModTime().Equal(b.ModTime()) && metaOf(a) == metaOf(b)
}
