//go:build !windows

package proxy_test

import "syscall"

// alive reports whether a process with this PID still exists.
func alive(pid int) bool { return syscall.Kill(pid, 0) == nil }
