package command_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"time"

	"github.com/galaxy-stack/conform/internal/proc"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/hosts/reference/command"
	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
)

// workspace returns a fresh workspace directory (its real path) and a
// spill directory outside it.
func workspace() (root, spill string) {
	base := GinkgoT().TempDir()
	real, err := filepath.EvalSymlinks(base)
	Expect(err).NotTo(HaveOccurred())
	root = filepath.Join(real, "ws")
	spill = filepath.Join(real, "spill")
	Expect(os.Mkdir(root, 0o755)).To(Succeed())
	Expect(os.Mkdir(spill, 0o755)).To(Succeed())
	return root, spill
}

// newRunner returns a best-effort Runner on root with the test process's
// environment.
func newRunner(root string, opts ...func(*command.Options)) *command.Runner {
	o := command.Options{Root: root}
	for _, f := range opts {
		f(&o)
	}
	r, err := command.New(o)
	Expect(err).NotTo(HaveOccurred())
	return r
}

// run runs cmd in root with a 10 s timeout and expects it to run.
func run(r *command.Runner, cmd string) command.Result {
	res, err := r.Run(context.Background(), command.Request{Command: cmd, TimeoutMs: 10000})
	Expect(err).NotTo(HaveOccurred())
	return res
}

// code returns the port error code of err, or "".
func code(err error) hosterr.Code {
	var ce *hosterr.Error
	if errors.As(err, &ce) {
		return ce.Code
	}
	return ""
}

// message returns the port error message of err, or "".
func message(err error) string {
	var ce *hosterr.Error
	if errors.As(err, &ce) {
		return ce.Message
	}
	return ""
}

// exit returns a pointer to an exit code.
func exit(c int) *int { return &c }

// readPIDs reads one PID per line.
func readPIDs(path string) []int {
	pids, err := proc.ReadPIDs(path)
	Expect(err).NotTo(HaveOccurred())
	return pids
}

// within asserts d is below limit.
func within(d int64, limit time.Duration) {
	ExpectWithOffset(1, time.Duration(d)*time.Millisecond).To(BeNumerically("<", limit))
}
