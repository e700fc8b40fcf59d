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

var _ = Describe("the probe cache and scratch directories", func() {
	BeforeEach(func() {
		if _, err := exec.LookPath("bwrap"); err != nil {
			Skip("bubblewrap (bwrap) is not installed")
		}
	})

	It("answers a second prober from the cache, and leaves no scratch directory", func() {
		cache, scratch := GinkgoT().TempDir(), GinkgoT().TempDir()
		cfg := command.ProberConfig{HelperArgs: []string{probeHelperArg}, CacheDir: cache, TempDir: scratch}
		first := command.NewProber(cfg).Probe()
		entries, err := os.ReadDir(scratch)
		Expect(err).NotTo(HaveOccurred())
		Expect(entries).To(BeEmpty(), "the probe left scratch directories")
		if !first.Verified {
			Skip("bubblewrap did not verify here")
		}
		files, err := filepath.Glob(filepath.Join(cache, "bwrap-probe-*.json"))
		Expect(err).NotTo(HaveOccurred())
		Expect(files).To(HaveLen(1))

		start := time.Now()
		second := command.NewProber(cfg).Probe()
		Expect(time.Since(start)).To(BeNumerically("<", 50*time.Millisecond), "the cached result was not used")
		Expect(second).To(Equal(first))

		// A corrupt entry is ignored: the probe runs and rewrites it.
		Expect(os.WriteFile(files[0], []byte("{not json"), 0o600)).To(Succeed())
		third := command.NewProber(cfg).Probe()
		Expect(third).To(Equal(first))
		data, err := os.ReadFile(files[0])
		Expect(err).NotTo(HaveOccurred())
		Expect(string(data)).To(ContainSubstring(`"verified":true`))
	})

	It("is not used for another bwrap binary", func() {
		cache := GinkgoT().TempDir()
		real, err := exec.LookPath("bwrap")
		Expect(err).NotTo(HaveOccurred())
		cfg := command.ProberConfig{HelperArgs: []string{probeHelperArg}, CacheDir: cache}
		if !command.NewProber(cfg).Probe().Verified {
			Skip("bubblewrap did not verify here")
		}
		// A different binary called bwrap elsewhere on the path: a shell
		// script that runs nothing, so it cannot verify.
		bin := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(bin, "bwrap"), []byte("#!/bin/sh\nexit 1\n"), 0o755)).To(Succeed())
		cfg.Path = bin
		other := command.NewProber(cfg).Probe()
		Expect(other.Verified).To(BeFalse())
		Expect(*other.Executable).To(Equal(filepath.Join(bin, "bwrap")))
		Expect(*other.Executable).NotTo(Equal(real))
	})
})
