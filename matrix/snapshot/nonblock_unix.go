//go:build !windows

package snapshot

import "syscall"

const nonBlock = syscall.O_NONBLOCK
