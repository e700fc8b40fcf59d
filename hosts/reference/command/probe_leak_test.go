//go:build linux

package command_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/hosts/reference/command"
)

// probeThenExitArg makes the test binary run one uncached probe with its
// scratch directories in os.Args[2], the way a host process probes in the
// background; the spec kills it mid-way.
const probeThenExitArg = "command-probe-then-exit"

func init() {
	if len(os.Args) > 2 && os.Args[1] == probeThenExitArg {
		command.NewProber(command.ProberConfig{HelperArgs: []string{probeHelperArg}, NoCache: true, TempDir: os.Args[2]}).Probe()
		os.Exit(0)
	}
}

var _ = Describe("a probe killed mid-way", func() {
	It("leaves scratch directories that the next probe removes", func() {
		if _, err := exec.LookPath("bwrap"); err != nil {
			Skip("bubblewrap (bwrap) is not installed")
		}
		tmp := GinkgoT().TempDir()
		exe, err := os.Executable()
		Expect(err).NotTo(HaveOccurred())
		cmd := exec.Command(exe, probeThenExitArg, tmp)
		Expect(cmd.Start()).To(Succeed())
		scratch := func() []string {
			m, _ := filepath.Glob(filepath.Join(tmp, "galaxy-bwrap-*"))
			return m
		}
		Eventually(scratch).WithTimeout(5 * time.Second).WithPolling(10 * time.Millisecond).ShouldNot(BeEmpty())
		time.Sleep(100 * time.Millisecond) // inside the probe's observation
		Expect(cmd.Process.Kill()).To(Succeed())
		_ = cmd.Wait()
		Expect(scratch()).NotTo(BeEmpty(), "the killed probe could not clean up")

		command.NewProber(command.ProberConfig{HelperArgs: []string{probeHelperArg}, NoCache: true, TempDir: tmp}).Probe()
		Expect(scratch()).To(BeEmpty(), "the next probe left the killed one's scratch directories")
	})
})
