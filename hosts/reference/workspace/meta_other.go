//go:build !linux && !darwin

package workspace

import "io/fs"

// metaOf returns the metadata portable across systems without a raw stat
// structure: no device or inode numbers, Go's mode bits, and the
// modification time in place of the change time.
func metaOf(fi fs.FileInfo) fileMeta { return portableMeta(fi) }
