package kit

import (
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// CwdRefusedApart gives a fresh host, every containment backend forbidden
// and containment best_effort, a run_command whose cwd is a workspace
// symlink to a directory beside the workspace. Best-effort execution
// needs no backend, so the only reason to refuse is the cwd: the refusal
// must say so, PERMISSION_DENIED ("cwd escapes the workspace",
// hosts/wire/tools/command.run.md#errors), never UNAVAILABLE, the code of
// the containment refusal, and the command must not run (S000 C11:
// process containment is reported separately from workspace cwd
// validation; catches cwd-refusal-as-containment, a host that funnels
// every refusal before spawn through its sandbox's answer).
func (o *Outcome) CwdRefusedApart() {
	GinkgoHelper()
	outside := filepath.Join(filepath.Dir(o.Workspace), "cwd-apart")
	Expect(os.MkdirAll(outside, 0o755)).To(Succeed(), "the harness cannot create %s", outside)
	DeferCleanup(os.RemoveAll, outside)
	if err := os.Symlink(outside, filepath.Join(o.Workspace, "cwd-apart")); err != nil {
		NotApplicable("the workspace cannot hold a symlink here: " + err.Error())
	}
	h := o.uncontainedHost()
	r, _, _, err := o.executeTimed(h, "run_command", "cwd-apart", map[string]any{"command": "echo ran > ran.txt", "cwd": "cwd-apart"}, 20000, "")
	Expect(err).NotTo(HaveOccurred(), "%s: run_command with a cwd that escapes the workspace failed on the wire instead of answering", o.File)
	_, statErr := os.Lstat(filepath.Join(outside, "ran.txt"))
	Expect(os.IsNotExist(statErr)).To(BeTrue(), "%s: run_command with cwd \"cwd-apart\", a workspace symlink to a directory outside the workspace, ran its command there", o.File)
	Expect(r.OK).To(BeFalse(), "%s: run_command with a cwd that escapes the workspace must be refused; the host answered %.200s", o.File, r.Content)
	Expect(r.Error).NotTo(BeNil(), "%s: the refused cwd's result carries no error", o.File)
	Expect(r.Error.Code).NotTo(Equal("UNAVAILABLE"), "%s: best-effort execution needs no containment backend, yet the host refused a cwd that escapes the workspace as UNAVAILABLE, the containment refusal; process containment and cwd validation are reported apart, and this refusal is the cwd's (PERMISSION_DENIED)", o.File)
	Expect(r.Error.Code).To(Equal("PERMISSION_DENIED"), "%s: a cwd that escapes the workspace is PERMISSION_DENIED; the host answered %s", o.File, r.Error.Code)
}
