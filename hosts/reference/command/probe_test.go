//go:build linux

package command_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/galaxy-stack/conform/hosts/reference/command"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// verifiedProbe returns the shared probe result, skipping with its reason
// when bubblewrap is missing or did not verify on this machine.
func verifiedProbe() command.ProbeResult {
	if _, err := exec.LookPath("bwrap"); err != nil {
		Skip("bubblewrap (bwrap) is not installed")
	}
	p := prober.Probe()
	if !p.Verified {
		Skip(fmt.Sprintf("bubblewrap did not verify here: %s", reasonOf(command.StatusFor(command.Required, p))))
	}
	return p
}

var _ = Describe("containment probe (LAB §13.2)", func() {
	It("reports bubblewrap unavailable when bwrap is not on the path", func() {
		p := command.NewProber(command.ProberConfig{Path: GinkgoT().TempDir(), HelperArgs: []string{probeHelperArg}}).Probe()
		Expect(p.Available).To(BeFalse())
		Expect(p.Backend).To(Equal(command.LinuxBubblewrap))
		Expect(p.Executable).To(BeNil())
		Expect(p.Verified).To(BeFalse())
		Expect(*p.Reason).To(Equal("bubblewrap (bwrap) is not available on PATH."))
		s := command.StatusFor(command.Required, p)
		Expect(s.State).To(Equal(command.StateUnavailable))
	})

	It("never verifies without an in-sandbox helper", func() {
		if _, err := exec.LookPath("bwrap"); err != nil {
			Skip("bubblewrap (bwrap) is not installed")
		}
		p := command.NewProber(command.ProberConfig{}).Probe()
		Expect(p.Available).To(BeTrue())
		Expect(p.Verified).To(BeFalse())
		Expect(*p.Reason).To(Equal("The bubblewrap conformance probe failed: no in-sandbox probe helper is configured"))
		Expect(command.StatusFor(command.Required, p).State).To(Equal(command.StateProbeFailed))
	})

	It("reports bwrap honestly: verified only with all nine assertions", func() {
		if _, err := exec.LookPath("bwrap"); err != nil {
			Skip("bubblewrap (bwrap) is not installed")
		}
		p := prober.Probe()
		Expect(p.Available).To(BeTrue())
		Expect(p.Backend).To(Equal(command.LinuxBubblewrap))
		Expect(p.HardLinkWriteDenied).To(BeTrue())
		Expect(p.Verified).To(Equal(p.AssertionsHold()))
		if p.Verified {
			Expect(p.Reason).To(BeNil())
		} else {
			Expect(*p.Reason).To(HavePrefix("The bubblewrap conformance probe failed: "))
		}
		AddReportEntry("bubblewrap probe", p)
	})

	It("caches the probe for the process", func() {
		if _, err := exec.LookPath("bwrap"); err != nil {
			Skip("bubblewrap (bwrap) is not installed")
		}
		first := prober.Probe()
		start := time.Now()
		Expect(prober.Probe()).To(Equal(first))
		Expect(time.Since(start)).To(BeNumerically("<", 50*time.Millisecond))
	})

	Describe("with a verified backend", func() {
		var (
			root, outside, sentinel string
			r                       *command.Runner
		)
		BeforeEach(func() {
			p := verifiedProbe()
			root, outside = workspace()
			sentinel = filepath.Join(outside, "sentinel")
			Expect(os.WriteFile(sentinel, []byte("original"), 0o644)).To(Succeed())
			r = newRunner(root, func(o *command.Options) { o.Containment = command.Required; o.Probe = &p })
		})

		It("is active and runs commands contained", func() {
			s := r.Containment()
			Expect(s.Active).To(BeTrue())
			Expect(s.FilesystemWrites).To(Equal("workspace_and_private_temp"))
			Expect(s.Network).To(Equal("denied"))
			Expect(os.Mkdir(filepath.Join(root, "sub"), 0o755)).To(Succeed())
			res, err := r.Run(context.Background(), command.Request{
				Command: `printf inside > ../inside.txt; pwd; printf changed > "$GALAXY_SENTINEL" || echo denied >&2; printf '%s' "$HOME"`,
				Cwd:     "sub",
				Env:     map[string]string{"GALAXY_SENTINEL": sentinel},
			})
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Contained).To(BeTrue())
			Expect(res.ExitCode).To(Equal(exit(0)))
			Expect(res.Stdout).To(Equal("/workspace/sub\n/tmp"))
			Expect(res.Stderr).To(ContainSubstring("denied"))
			Expect(os.ReadFile(filepath.Join(root, "inside.txt"))).To(Equal([]byte("inside")))
			Expect(os.ReadFile(sentinel)).To(Equal([]byte("original")))
		})

		It("refuses a hard-linked workspace before spawning", func() {
			Expect(os.Link(sentinel, filepath.Join(root, "linked"))).To(Succeed())
			_, err := r.Run(context.Background(), command.Request{Command: "printf changed > linked"})
			Expect(err).To(MatchError(command.ErrPermissionDenied))
			Expect(os.ReadFile(sentinel)).To(Equal([]byte("original")))
		})

		It("cancels a contained command and leaves nothing running", func() {
			// The late write comes 2 s after the start, far after the
			// cancellation at 300 ms even on a loaded machine; the check
			// waits until well after it would have happened.
			ctx, cancel := context.WithCancel(context.Background())
			started := time.Now()
			time.AfterFunc(300*time.Millisecond, cancel)
			res, err := r.Run(ctx, command.Request{Command: "(sleep 2; echo late > late.txt) & sleep 30"})
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Status).To(Equal(command.StatusCanceled))
			within(res.DurationMs, 5*time.Second)
			time.Sleep(time.Until(started.Add(2500 * time.Millisecond)))
			Expect(filepath.Join(root, "late.txt")).NotTo(BeAnExistingFile())
		})
	})
})

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
