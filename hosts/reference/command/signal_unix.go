//go:build unix

package command

import "syscall"

// groupSignalable reports whether kill(-pgid, 0) finds any member.
func groupSignalable(pgid int) bool { return syscall.Kill(-pgid, 0) == nil }
