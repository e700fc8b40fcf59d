package proc

import (
	"os"
	"os/exec"
	"testing"
)

func TestAliveUntilKilled(t *testing.T) {
	if !Alive(os.Getpid()) {
		t.Fatal("Alive says this test process is not alive")
	}
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Skipf("no sleep command: %v", err)
	}
	pid := cmd.Process.Pid
	Kill(pid)
	_ = cmd.Wait()
	if Alive(pid) {
		t.Fatalf("pid %d is alive after Kill and Wait", pid)
	}
	if Alive(0) || Alive(-1) {
		t.Error("Alive accepts a pid that names no single process")
	}
}
