//go:build windows

package hostproc

import "os/exec"

// setProcessGroup does nothing on Windows: conform uses no job object, so
// only the host process itself is under its control.
func setProcessGroup(cmd *exec.Cmd) {}

func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
