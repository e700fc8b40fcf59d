package matrix

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/galaxy-stack/conform/internal/proc"
)

// TestCommandsLeaveNoProcess runs the commands area against the reference
// host in a child test process whose TMPDIR is a directory of its own,
// then reads the process table: no process whose environment, command
// line or working directory names that directory — a host, a command, a
// grandchild, a containment wrapper — may outlive the area. The ones
// found are listed and killed.
func TestCommandsLeaveNoProcess(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the process table is read from /proc")
	}
	if testing.Short() {
		t.Skip("runs the commands area a second time")
	}
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestMatrix$", "-test.count=1", "-ginkgo.label-filter=area:commands")
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the commands area failed against the reference host (%v):\n%s", err, out)
	}
	if !bytes.Contains(out, []byte("Passed")) {
		t.Fatalf("the child ran no spec of the commands area:\n%s", out)
	}
	t.Logf("the commands area ran in %s", time.Since(start).Round(time.Millisecond))
	var left []int
	for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if left = processesNaming(tmp); len(left) == 0 || time.Now().After(deadline) {
			break
		}
	}
	for _, pid := range left {
		cmdline, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
		t.Errorf("process %d (%s) outlived the commands area; killed", pid, strings.ReplaceAll(strings.TrimRight(string(cmdline), "\x00"), "\x00", " "))
		proc.Kill(pid)
	}
}

// processesNaming returns the live processes, other than this one, whose
// environment, command line or working directory names dir.
func processesNaming(dir string) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() || !proc.Alive(pid) {
			continue
		}
		p := filepath.Join("/proc", e.Name())
		env, _ := os.ReadFile(filepath.Join(p, "environ"))
		cmdline, _ := os.ReadFile(filepath.Join(p, "cmdline"))
		cwd, _ := os.Readlink(filepath.Join(p, "cwd"))
		if bytes.Contains(env, []byte(dir)) || bytes.Contains(cmdline, []byte(dir)) || strings.HasPrefix(cwd, dir) {
			out = append(out, pid)
		}
	}
	return out
}
