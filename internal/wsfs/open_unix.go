//go:build !windows

package wsfs

import "syscall"

// openFlags open a file for reading without blocking on a FIFO and
// without following a link swapped in at its name.
const openFlags = syscall.O_NONBLOCK | syscall.O_NOFOLLOW
