//go:build !windows

package mutants_test

import "syscall"

// alive reports whether a process with this PID still exists and is not a
// zombie waiting to be reaped.
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	return !zombie(pid)
}

// kill ends a process the test left behind.
func kill(pid int) { _ = syscall.Kill(pid, syscall.SIGKILL) }
