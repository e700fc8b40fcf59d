//go:build !unix

package command

import (
	"io/fs"
	"os"
)

// lockFile succeeds without a lock: only the age of a scratch directory
// tells an abandoned one here.
func lockFile(*os.File) error { return nil }

// tryLockFile never takes a lock here, so no scratch directory is taken
// for abandoned because of its lock.
func tryLockFile(*os.File) bool { return false }

// privateToMe is false here: ownership cannot be checked, so the probe
// cache is not used.
func privateToMe(fs.FileInfo) bool { return false }
