package lab_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"

	"github.com/galaxy-stack/conform/matrix/lab"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// plainGit runs git with the test's own environment, as a fixture author's
// machine would, and fails the spec when it fails.
func plainGit(dir string, args ...string) {
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	ExpectWithOffset(1, err).NotTo(HaveOccurred(), string(out))
}

// hostileConfig makes .git/config of the repository in ws name, for each
// vector, a script that appends its name to marker and copies its input to
// its output; hooks go into a hooks directory core.hooksPath names.
func hostileConfig(ws, marker string) {
	bin := GinkgoT().TempDir()
	script := func(name string) string {
		p := filepath.Join(bin, name)
		Expect(os.WriteFile(p, []byte("#!/bin/sh\necho "+name+" >> '"+marker+"'\ncat\n"), 0o755)).To(Succeed())
		return p
	}
	hooks := filepath.Join(bin, "hooks")
	Expect(os.Mkdir(hooks, 0o755)).To(Succeed())
	for _, h := range []string{"pre-commit", "prepare-commit-msg", "commit-msg", "post-commit", "post-index-change"} {
		Expect(os.Rename(script(h), filepath.Join(hooks, h))).To(Succeed())
	}
	for key, value := range map[string]string{
		"core.fsmonitor":     script("fsmonitor"),
		"core.hooksPath":     hooks,
		"core.pager":         script("pager"),
		"filter.evil.clean":  script("clean"),
		"filter.evil.smudge": script("smudge"),
		"gpg.program":        script("gpg"),
		"commit.gpgSign":     "true",
	} {
		plainGit(ws, "config", key, value)
	}
}

var _ = Describe("the Git baseline", func() {
	var ws, marker string
	BeforeEach(func() {
		if _, err := exec.LookPath("git"); err != nil {
			Skip("git is not installed")
		}
		if runtime.GOOS == "windows" {
			Skip("the hostile commands are shell scripts")
		}
		ws = filepath.Join(GinkgoT().TempDir(), "workspace")
		Expect(os.Mkdir(ws, 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(ws, "a.txt"), []byte("one\n"), 0o644)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(ws, ".gitattributes"), []byte("* filter=evil\n"), 0o644)).To(Succeed())
		marker = filepath.Join(GinkgoT().TempDir(), "marker")
	})

	It("is made once and kept for the next stage of a campaign", func() {
		ok, reason := lab.GitBaseline(context.Background(), ws)
		Expect(ok).To(BeTrue(), reason)
		Expect(filepath.Join(ws, ".git", "conform-baseline")).To(BeARegularFile())
		head, err := os.ReadFile(filepath.Join(ws, ".git", "HEAD"))
		Expect(err).NotTo(HaveOccurred())
		ok, reason = lab.GitBaseline(context.Background(), ws)
		Expect(ok).To(BeTrue(), reason)
		again, err := os.ReadFile(filepath.Join(ws, ".git", "HEAD"))
		Expect(err).NotTo(HaveOccurred())
		Expect(again).To(Equal(head))
	})

	It("is not made on, and runs nothing in, a .git the harness did not make", func() {
		plainGit(ws, "init", "-q")
		hostileConfig(ws, marker)
		ok, reason := lab.GitBaseline(context.Background(), ws)
		Expect(ok).To(BeFalse())
		Expect(reason).To(ContainSubstring("did not make"))
		Expect(marker).NotTo(BeAnExistingFile(), "a hostile program ran")
	})

	It("is not made when .git is a file", func() {
		Expect(os.WriteFile(filepath.Join(ws, ".git"), []byte("gitdir: /elsewhere\n"), 0o644)).To(Succeed())
		ok, _ := lab.GitBaseline(context.Background(), ws)
		Expect(ok).To(BeFalse())
	})

	It("commands run no program a repository's configuration names", func() {
		plainGit(ws, "init", "-q")
		hostileConfig(ws, marker)
		git, err := exec.LookPath("git")
		Expect(err).NotTo(HaveOccurred())
		drivers := lab.FilterDrivers(context.Background(), git, ws)
		Expect(drivers).To(Equal([]string{"evil"}))
		run := func(neutral bool, args ...string) {
			if neutral {
				args = append(lab.NeutralGitArgs(drivers), args...)
			}
			cmd := exec.Command(git, args...)
			cmd.Dir, cmd.Env = ws, lab.GitEnv(ws)
			out, err := cmd.CombinedOutput()
			Expect(err).NotTo(HaveOccurred(), string(out))
		}
		commit := []string{"-c", "user.name=G", "-c", "user.email=g@local.invalid", "commit", "--quiet", "--no-verify", "--allow-empty", "-m", "m"}
		run(true, "add", "-A")
		run(true, commit...)
		run(true, "status", "--short")
		Expect(marker).NotTo(BeAnExistingFile(), "a hostile program ran: %s", readMarker(marker))

		// The same commands without the neutral options run the programs:
		// the check above can fail.
		Expect(os.WriteFile(filepath.Join(ws, "a.txt"), []byte("two\n"), 0o644)).To(Succeed())
		run(false, "add", "-A")
		Expect(readMarker(marker)).To(And(ContainSubstring("fsmonitor"), ContainSubstring("clean")))
	})
})

func readMarker(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}
