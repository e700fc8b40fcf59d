package effects_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/core/port"
)

func expectFor(id, modelName, mode string) effects.Expect {
	caps, _ := effects.CoreCapabilities(id)
	return effects.Expect{ModelName: modelName, CanonicalToolID: id, Mode: mode, Capabilities: caps}
}

var _ = Describe("CheckResult", func() {
	write := effects.CreateFile("src/a.ts", "sha256:a")

	It("accepts the host-attested success of CONTRACTS §7.5", func() {
		r := okResult("workspace.write", &port.Effects{Approval: "not_required", StateVersion: "v42", Writes: []port.Write{write}})
		Expect(effects.CheckResult(r, expectFor("workspace.write", "write_file", "auto"))).To(Succeed())
	})

	It("accepts a plain failure and a denial", func() {
		Expect(effects.CheckResult(failResult("workspace.write", nil), expectFor("workspace.write", "write_file", "auto"))).To(Succeed())
		r := failResult("command.run", &port.Effects{Approval: "denied", ApprovalRequestID: "run-1:call-1"})
		x := expectFor("command.run", "run_command", "auto")
		x.PendingApprovals = []string{"run-1:call-1", "other"}
		Expect(effects.CheckResult(r, x)).To(Succeed())
	})

	It("accepts results without host authority checks beyond the envelope", func() {
		Expect(effects.CheckResult(okResult("workspace.read", nil), expectFor("workspace.read", "read_file", "review_only"))).To(Succeed())
	})

	It("checks in the original order: envelope, identity, mode, capabilities, content", func() {
		x := expectFor("workspace.read", "read_file", "review_only")
		r := okResult("workspace.write", &port.Effects{Writes: []port.Write{{Path: ""}}})
		r.Error = &port.ToolError{}
		failWith(effects.CheckResult(r, x), msgContradictory)
		r.Error = nil
		failWith(effects.CheckResult(r, x), "Tool result identity mismatch for read_file; expected workspace.read.")
		r.CanonicalToolID = "workspace.read"
		failWith(effects.CheckResult(r, x), "review_only tool result reported a workspace mutation.")
		x.Mode = "auto"
		failWith(effects.CheckResult(r, x), "Tool workspace.read produced undeclared host effects: write.")
		x.Capabilities = append(x.Capabilities, "write")
		failWith(effects.CheckResult(r, x), msgWrite)
	})

	It("catches forged effects that the envelope check alone would pass", func() {
		r := okResult("workspace.read", &port.Effects{Writes: []port.Write{write}})
		Expect(effects.CheckEnvelope(r)).To(Succeed())
		failWith(effects.CheckResult(r, expectFor("workspace.read", "read_file", "auto")),
			"Tool workspace.read produced undeclared host effects: write.")
	})

	Describe("pending approval", func() {
		x := expectFor("command.run", "run_command", "auto")

		It("accepts a pending result and ignores its other effects", func() {
			r := okResult("command.run", &port.Effects{Approval: "pending", ApprovalRequestID: "run-1:call-1", StateVersion: " "})
			Expect(effects.CheckResult(r, x)).To(Succeed())
			Expect(effects.CheckPending(r)).To(Succeed())
		})

		It("needs a request ID", func() {
			r := okResult("command.run", &port.Effects{Approval: "pending", ApprovalRequestID: " "})
			failWith(effects.CheckResult(r, x), "Pending approval effect is missing approvalRequestId.")
			r.Effects.ApprovalRequestID = ""
			failWith(effects.CheckPending(r), "Pending approval effect is missing approvalRequestId.")
		})

		It("may not carry success effects", func() {
			r := okResult("command.run", &port.Effects{Approval: "pending", ApprovalRequestID: "r", Writes: []port.Write{write}})
			failWith(effects.CheckResult(r, x), "A pending approval result cannot include success effects.")
			r = okResult("project.validate", &port.Effects{Approval: "pending", ApprovalRequestID: "r",
				Validations: []port.ValidationEntry{validation("v", "d", "workspace")}})
			failWith(effects.CheckPending(r), "A pending approval result cannot include success effects.")
		})

		It("may not repeat a pending request", func() {
			r := okResult("command.run", &port.Effects{Approval: "pending", ApprovalRequestID: "r"})
			y := x
			y.PendingApprovals = []string{"r"}
			failWith(effects.CheckResult(r, y), "Approval request r is already pending.")
		})

		It("blocks other successes while a request is unresolved", func() {
			y := expectFor("workspace.read", "read_file", "auto")
			y.PendingApprovals = []string{"r"}
			r := okResult("workspace.read", &port.Effects{InspectedPaths: []string{"a"}})
			failWith(effects.CheckResult(r, y), "Success effects are blocked while an approval remains unresolved.")
			r.Effects.Approval, r.Effects.ApprovalRequestID = "granted", "r"
			Expect(effects.CheckResult(r, y)).To(Succeed())
			r.Effects.Approval = "not_required"
			failWith(effects.CheckResult(r, y), "Success effects are blocked while an approval remains unresolved.")
			r.Effects.Approval = "denied"
			y.PendingApprovals = []string{"r", "s"}
			failWith(effects.CheckResult(r, y), "Success effects are blocked while an approval remains unresolved.")
		})

		It("lets a success without effects through while pending", func() {
			y := expectFor("workspace.read", "read_file", "auto")
			y.PendingApprovals = []string{"r"}
			Expect(effects.CheckResult(okResult("workspace.read", nil), y)).To(Succeed())
		})
	})

	It("refuses dispatch while approvals are pending", func() {
		Expect(effects.CheckDispatch(0)).To(Succeed())
		failWith(effects.CheckDispatch(1), "No tool call may execute while an approval request is unresolved.")
	})
})

var _ = Describe("ObservationKind", func() {
	DescribeTable("classifies results",
		func(r port.ToolResult, kind string) { Expect(effects.ObservationKind(r)).To(Equal(kind)) },
		Entry("a host diff review", okResult("git.exec", &port.Effects{DiffReview: &port.DiffReview{DiffHash: "h"}}), "diff"),
		Entry("a diff review without host authority", func() port.ToolResult {
			r := okResult("git.exec", &port.Effects{DiffReview: &port.DiffReview{DiffHash: "h"}})
			r.EffectsAuthority = ""
			return r
		}(), "tool"),
		Entry("a file read", okResult("workspace.read", nil), "file"),
		Entry("a failed file read", failResult("workspace.read", nil), "file"),
		Entry("a fetch", okResult("research.fetch", nil), "research"),
		Entry("a search", okResult("research.search", nil), "research"),
		Entry("anything else", okResult("workspace.list", nil), "tool"),
	)
})
