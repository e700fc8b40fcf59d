//go:build unix

package command_test

import (
	"github.com/galaxy-stack/conform/internal/proc"

	. "github.com/onsi/gomega"
)

// expectAllGone asserts every recorded PID has ended.
func expectAllGone(pids []int) {
	ExpectWithOffset(1, pids).NotTo(BeEmpty())
	for _, pid := range pids {
		ExpectWithOffset(1, proc.Alive(pid)).To(BeFalse(), "process %d is still running", pid)
	}
}

// killAll cleans up after a broken variant that left processes behind.
func killAll(pids []int) {
	for _, pid := range pids {
		proc.Kill(pid)
	}
}
