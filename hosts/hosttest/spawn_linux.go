package hosttest

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// SpawnSleep starts a long sleep that inherits the caller's stderr, with
// attr and env, and returns its PID: the process a hostile test host leaves
// behind (in its group, in a new session, or in a group of its own). A
// failure to start it ends the test host with status 8.
func SpawnSleep(attr *syscall.SysProcAttr, env []string) int {
	cmd := exec.Command("sleep", "300")
	cmd.Stderr = os.Stderr
	cmd.SysProcAttr = attr
	cmd.Env = env
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "zoo: spawn:", err)
		os.Exit(8)
	}
	return cmd.Process.Pid
}
