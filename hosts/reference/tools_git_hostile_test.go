package reference_test

import (
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/galaxy-stack/conform/internal/suite"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// hostileRepo is a committed repository in ws whose .git/config names, for
// each key in vectors, a script that appends the key to marker (outside the
// workspace) and then copies its input to its output.
func hostileRepo(ws, marker string, vectors map[string]string) {
	bin := GinkgoT().TempDir()
	git(ws, "init", "-q")
	git(ws, "add", ".")
	git(ws, "commit", "-q", "-m", "base")
	for key, name := range vectors {
		script := filepath.Join(bin, name+".sh")
		Expect(os.WriteFile(script, []byte("#!/bin/sh\necho "+name+" >> '"+marker+"'\ncat\n"), 0o755)).To(Succeed())
		git(ws, "config", key, script)
	}
}

var _ = Describe("git.exec in a hostile repository", func() {
	BeforeEach(func() {
		if runtime.GOOS == "windows" {
			Skip("the hostile commands are shell scripts")
		}
	})

	It("runs no program that .git/config or .gitattributes names", func() {
		e := start(setup{files: map[string]string{"a.txt": "one\n", ".gitattributes": "a.txt filter=evil diff=evil\n"}})
		marker := filepath.Join(GinkgoT().TempDir(), "marker")
		hostileRepo(e.ws, marker, map[string]string{
			"core.fsmonitor":      "fsmonitor",
			"core.pager":          "pager",
			"pager.status":        "pagerstatus",
			"diff.external":       "external",
			"diff.evil.command":   "diffcommand",
			"diff.evil.textconv":  "textconv",
			"filter.evil.clean":   "clean",
			"filter.evil.smudge":  "smudge",
			"filter.evil.process": "process",
			"gpg.program":         "gpg",
		})
		git(e.ws, "config", "log.showSignature", "true")
		git(e.ws, "config", "filter.evil.required", "true")
		// A changed stat makes status compare the content through the clean
		// filter; a changed content makes diff run textconv and filters.
		old := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
		Expect(os.Chtimes(filepath.Join(e.ws, "a.txt"), old, old)).To(Succeed())
		_, out := e.ok("git_operation", map[string]any{"action": "status"})
		Expect(out["stdout"]).To(BeEmpty(), "the content did not change")
		suite.WriteFiles(e.ws, map[string]string{"a.txt": "two\n", "new.txt": "n\n"})
		_, out = e.ok("git_operation", map[string]any{"action": "status"})
		Expect(out["stdout"]).To(ContainSubstring("a.txt"))
		_, out = e.ok("git_operation", map[string]any{"action": "diff"})
		Expect(out["stdout"]).To(And(ContainSubstring("-one"), ContainSubstring("+two"), ContainSubstring("+n")))
		_, out = e.ok("git_operation", map[string]any{"action": "log", "limit": 1})
		Expect(out["stdout"]).To(ContainSubstring("base"))
		_, err := os.Stat(marker)
		Expect(err).To(MatchError(os.ErrNotExist), "a hostile program ran: %s", readOr(marker))
	})

	It("keeps to the workspace when core.worktree points elsewhere", func() {
		e := start(setup{files: map[string]string{"a.txt": "one\n"}})
		outside := GinkgoT().TempDir()
		suite.WriteFiles(outside, map[string]string{"outside-secret.txt": "s\n"})
		git(e.ws, "init", "-q")
		git(e.ws, "config", "core.worktree", outside)
		_, out := e.ok("git_operation", map[string]any{"action": "status"})
		Expect(out["stdout"]).To(ContainSubstring("a.txt"))
		Expect(out["stdout"]).NotTo(ContainSubstring("outside-secret"))
	})

	It("does not report an enclosing repository for a workspace without one", func() {
		e := start(setup{files: map[string]string{"a.txt": "one\n"}})
		git(filepath.Dir(e.ws), "init", "-q")
		r, err := e.call("git_operation", map[string]any{"action": "status"})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.OK).To(BeFalse(), "status used the repository enclosing the workspace: %s", r.Content)
		Expect(r.Content).To(ContainSubstring("not a git repository"))
	})
})

// readOr returns the content of path, or "" when it cannot be read.
func readOr(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}
