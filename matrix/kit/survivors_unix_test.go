//go:build unix

package kit

import (
	"os"
	"os/exec"
	"slices"
	"testing"
	"time"
)

// startIn starts `sleep secs` working in dir and returns it; it is killed
// and reaped when the test ends.
func startIn(t *testing.T, dir, secs string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("sleep", secs)
	cmd.Dir = dir
	if err := cmd.Start(); err != nil {
		t.Skipf("cannot start sleep: %v", err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() { _ = cmd.Process.Kill(); <-done })
	return cmd
}

// TestSurvivorsUncontainedWaitsForTheTableToEmpty: for an uncontained run
// the wait ends as soon as no process works in the workspace, and a
// process that stays is reported once lateWindow has passed, as the fixed
// wait of a contained run reports it.
func TestSurvivorsUncontainedWaitsForTheTableToEmpty(t *testing.T) {
	if _, err := os.Stat("/proc/self/cwd"); err != nil {
		t.Skip("no /proc process table")
	}
	ws := t.TempDir()
	o := &Outcome{Workspace: ws, uncontainedRun: true}

	start := time.Now()
	if live, table := o.survivors(); !table || len(live) != 0 {
		t.Fatalf("an empty workspace: survivors = %v, table %v; want none, true", live, table)
	}
	if took := time.Since(start); took >= lateWindow {
		t.Errorf("an empty workspace took %s, the whole window %s", took, lateWindow)
	}

	startIn(t, ws, "0.2")
	start = time.Now()
	if live, _ := o.survivors(); len(live) != 0 {
		t.Fatalf("a process that ended 0.2 s in is still reported: %v", live)
	}
	if took := time.Since(start); took >= lateWindow {
		t.Errorf("a process that ended 0.2 s in kept the wait for %s, the whole window %s", took, lateWindow)
	}

	stays := startIn(t, ws, "30")
	start = time.Now()
	live, _ := o.survivors()
	if !slices.Contains(live, stays.Process.Pid) {
		t.Fatalf("a process still working in the workspace is not reported: %v (want %d)", live, stays.Process.Pid)
	}
	if took := time.Since(start); took < lateWindow {
		t.Errorf("a survivor was reported after %s, before the window %s had passed", took, lateWindow)
	}

	o.uncontainedRun = false
	_ = stays.Process.Kill()
	start = time.Now()
	if live, _ := o.survivors(); len(live) != 0 {
		t.Fatalf("a contained run: survivors = %v after the process was killed", live)
	}
	if took := time.Since(start); took < lateWindow {
		t.Errorf("a contained run waited %s, less than the window %s its survivors need to show by their late write", took, lateWindow)
	}
}
