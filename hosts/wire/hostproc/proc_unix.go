//go:build unix

package hostproc

import (
	"os/exec"
	"syscall"
)

// setProcessGroup starts the host in a process group of its own, whose ID
// is the host's PID.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killProcessGroup kills the host's process group and the host itself.
func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Process.Kill()
	}
}
