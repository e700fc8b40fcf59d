package hostproc

import (
	"errors"

	"golang.org/x/sys/unix"
)

// awaitExit blocks until the process pid has exited, without reaping it:
// the zombie keeps its PID, and so the ID of the process group it led,
// from being given to a new process while the harness kills what is left
// of its group and tree. cmd.Wait reaps it afterwards.
func awaitExit(pid int) {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if !errors.Is(err, unix.EINTR) {
			return
		}
	}
}
