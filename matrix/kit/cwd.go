package kit

import (
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// CwdStaysInside gives a fresh host run_command calls whose cwd is a
// workspace symlink leading out of the workspace: to a directory beside
// it, and to one whose path is the workspace's own path with a suffix
// (<workspace>-sibling), which a containment test by string prefix takes
// for a subdirectory. Each must fail PERMISSION_DENIED
// (hosts/wire/tools/command.run.md#errors: "cwd escapes the workspace")
// and its command must not run (catches cwd-lexical-only,
// cwd-prefix-check).
func (o *Outcome) CwdStaysInside() {
	GinkgoHelper()
	parent := filepath.Dir(o.Workspace)
	targets := map[string]string{
		"cwd-out":     filepath.Join(parent, "cwd-outside"),
		"cwd-sibling": o.Workspace + "-sibling",
	}
	for link, dir := range targets {
		Expect(os.MkdirAll(dir, 0o755)).To(Succeed(), "the harness cannot create %s", dir)
		DeferCleanup(os.RemoveAll, dir)
		if err := os.Symlink(dir, filepath.Join(o.Workspace, link)); err != nil {
			NotApplicable("the workspace cannot hold a symlink here: " + err.Error())
		}
	}
	h := o.uncontainedHost()
	for _, link := range []string{"cwd-out", "cwd-sibling"} {
		r, _, _, err := o.executeTimed(h, "run_command", "cwd-"+link, map[string]any{"command": "echo ran > ran.txt", "cwd": link}, 20000, "")
		Expect(err).NotTo(HaveOccurred(), "%s: run_command with cwd %q failed on the wire instead of answering", o.File, link)
		_, statErr := os.Lstat(filepath.Join(targets[link], "ran.txt"))
		Expect(os.IsNotExist(statErr)).To(BeTrue(), "%s: run_command with cwd %q, a workspace symlink to %s outside the workspace, ran its command there; a cwd must resolve beneath the workspace, symlinks followed", o.File, link, filepath.Base(targets[link]))
		Expect(r.OK).To(BeFalse(), "%s: run_command with cwd %q, a symlink leading out of the workspace, must be refused; the host answered %.200s", o.File, link, r.Content)
		Expect(r.Error).NotTo(BeNil(), "%s: the refused cwd %q result carries no error", o.File, link)
		Expect(r.Error.Code).To(Equal("PERMISSION_DENIED"), "%s: a cwd that escapes the workspace through a symlink is PERMISSION_DENIED; the host answered %s", o.File, r.Error.Code)
	}
}
