package mutants_test

import (
	"os"
	"path/filepath"

	"github.com/galaxy-stack/conform/hosts/wire"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The wire-level specs of the mutants that matrix items 7 (approval
// outcomes), 28 (containment) and 54 (metacharacter file names) catch.
var _ = addSpecs(approvalSpecs)

// strictApprovals asks for approval of every medium-risk call, writes
// included, and gives up on an unanswered request after 100 ms.
func strictApprovals(p *wire.InitializeParams) {
	p.ApprovalProfile = "strict"
	p.ApprovalTimeoutMs = 100
}

var approvalSpecs = map[string]func(name string){
	"approval-timeout-approves": func(name string) {
		ref, mut := both(name, setup{approver: "silent", params: strictApprovals})
		r := ref.fails("write_file", create("a.txt", "x"), "DENY_APPROVAL_TIMEOUT")
		Expect(r.Effects.Approval).To(Equal("denied"))
		Expect(ref.exists("a.txt")).To(BeFalse(), "the reference wrote after a timed-out approval")
		mut.ok("write_file", create("a.txt", "x"))
		Expect(mut.exists("a.txt")).To(BeTrue(), "the mutant treats the timeout as approval")
	},
	"missing-approver-approves": func(name string) {
		ref, mut := both(name, setup{approver: "absent", params: strictApprovals})
		r := ref.fails("write_file", create("a.txt", "x"), "DENY_APPROVAL_UNAVAILABLE")
		Expect(r.Effects.Approval).To(Equal("denied"))
		Expect(ref.exists("a.txt")).To(BeFalse(), "the reference wrote without an approver")
		mut.ok("write_file", create("a.txt", "x"))
		Expect(mut.exists("a.txt")).To(BeTrue(), "the mutant treats a missing approver as approval")
	},
	"bypass-active-containment": func(name string) {
		posixOnly()
		required := func(p *wire.InitializeParams) {
			p.Containment, p.ForbidContainmentBackends = wire.ContainmentRequired, false
		}
		ref, mut := both(name, setup{params: required})
		if c := ref.init.Containment; c == nil || !c.Verified {
			Skip("this machine has no verified containment backend")
		}
		run := map[string]any{"command": "printf escaped > ../escaped.txt; exit 0"}
		for _, h := range []*host{ref, mut} {
			Expect(h.init.Containment.Active).To(BeTrue(), "%s reports containment inactive", h)
			h.run(run)
			_, err := os.Stat(filepath.Join(h.dir, "escaped.txt"))
			Expect(err == nil).To(Equal(h == mut), "%s: a contained command wrote beside the workspace: %v", h, err)
		}
	},
	"git-through-shell": func(name string) {
		git := gitOrSkip()
		hostile := "semi;touch INJECTED.txt"
		ref, mut := both(name, setup{files: map[string]string{hostile: "x\n"},
			prepare: func(dir string) { gitInit(git, filepath.Join(dir, "workspace")) }})
		status := map[string]any{"action": "status", "paths": []string{hostile}}
		for _, h := range []*host{ref, mut} {
			h.result("git_operation", status)
			Expect(h.exists("INJECTED.txt")).To(Equal(h == mut), "%s: the path ran as shell", h)
		}
	},
	"glob-pathspecs": func(name string) {
		git := gitOrSkip()
		ref, mut := both(name, setup{files: map[string]string{"star*.txt": "x\n", "star-decoy.txt": "y\n"},
			prepare: func(dir string) { gitInit(git, filepath.Join(dir, "workspace")) }})
		status := map[string]any{"action": "status", "paths": []string{"star*.txt"}}
		_, out := ref.ok("git_operation", status)
		Expect(out["stdout"]).NotTo(ContainSubstring("star-decoy.txt"), "star*.txt is a literal path to the reference")
		_, out = mut.ok("git_operation", status)
		Expect(out["stdout"]).To(ContainSubstring("star-decoy.txt"), "star*.txt became a glob")
	},
}
