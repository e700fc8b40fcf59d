//go:build unix

package command_test

import (
	"errors"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	. "github.com/onsi/gomega"
)

// processGone reports whether pid has ended: kill(pid, 0) fails with
// ESRCH, or the process is a zombie (it has exited and only waits for its
// new parent, the machine's init, to reap it).
func processGone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	if runtime.GOOS != "linux" {
		return false
	}
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	s := string(data)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(fields) > 0 && (fields[0] == "Z" || fields[0] == "X")
}

// expectAllGone asserts every recorded PID has ended.
func expectAllGone(pids []int) {
	ExpectWithOffset(1, pids).NotTo(BeEmpty())
	for _, pid := range pids {
		ExpectWithOffset(1, processGone(pid)).To(BeTrue(), "process %d is still running", pid)
	}
}

// killAll cleans up after a broken variant that left processes behind.
func killAll(pids []int) {
	for _, pid := range pids {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}
