//go:build unix

package command

import (
	"io/fs"
	"os"
	"syscall"
)

// lockFile takes an exclusive lock on f, released when f is closed or the
// process ends.
func lockFile(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}

// tryLockFile reports whether an exclusive lock on f could be taken now;
// the lock is released when f is closed.
func tryLockFile(f *os.File) bool {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
}

// privateToMe reports whether info is owned by this process's effective
// user and writable by nobody else.
func privateToMe(info fs.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid() && info.Mode().Perm()&0o022 == 0
}
