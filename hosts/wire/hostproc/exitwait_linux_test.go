package hostproc

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// TestAwaitExitLeavesTheProcessUnreaped: after awaitExit the exited host
// still holds its PID (a zombie), so its group can be killed without
// reaching a process that reused the ID; cmd.Wait reaps it afterwards.
func TestAwaitExitLeavesTheProcessUnreaped(t *testing.T) {
	cmd := exec.Command("/bin/sh", "-c", "exit 3")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	awaitExit(cmd.Process.Pid)
	b, err := os.ReadFile("/proc/" + strconv.Itoa(cmd.Process.Pid) + "/stat")
	if err != nil {
		t.Fatalf("the exited process no longer holds its PID: %v", err)
	}
	if f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:])); len(f) == 0 || f[0] != "Z" {
		t.Errorf("state after awaitExit = %q, want Z (exited, not reaped)", b)
	}
	err = cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 {
		t.Errorf("Wait after awaitExit = %v, want exit status 3", err)
	}
}
