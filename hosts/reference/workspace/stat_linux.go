package workspace

import (
	"golang.org/x/sys/unix"
)

// statWithoutLinks stats the file at the absolute path abs when no
// component of abs is a symbolic link, in one openat2(2) call resolving
// with RESOLVE_NO_SYMLINKS (an O_PATH descriptor, which opens nothing for
// reading: a FIFO does not block and a device sees no open) and one
// fstat(2). ok is false when abs holds a symbolic link, does not exist,
// cannot be reached or the kernel lacks openat2: the caller then resolves
// abs the general way, whose answer is the same for every path this one
// answers.
func statWithoutLinks(abs string) (st fileStat, ok bool) {
	fd, err := unix.Openat2(unix.AT_FDCWD, abs, &unix.OpenHow{
		// Without O_NOFOLLOW, a final symbolic link fails with ELOOP
		// too; with it, O_PATH would open the link itself.
		Flags:   unix.O_PATH | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_NO_SYMLINKS,
	})
	if err != nil {
		return fileStat{}, false
	}
	defer unix.Close(fd)
	var s unix.Stat_t
	if unix.Fstat(fd, &s) != nil || s.Mode&unix.S_IFMT == unix.S_IFLNK {
		return fileStat{}, false
	}
	return fileStat{regular: s.Mode&unix.S_IFMT == unix.S_IFREG, size: s.Size}, true
}
