package effects_test

import (
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/core/port"
)

func okResult(id string, e *port.Effects) port.ToolResult {
	r := port.ToolResult{OK: true, CanonicalToolID: id, Content: "{}", Summary: "done", Trust: "workspace"}
	if e != nil {
		r.Effects, r.EffectsAuthority = e, "host"
	}
	return r
}

func failResult(id string, e *port.Effects) port.ToolResult {
	r := okResult(id, e)
	r.OK = false
	r.Error = &port.ToolError{Code: "NOT_FOUND", Message: "missing"}
	return r
}

const (
	msgMalformed     = "Tool adapter returned a malformed result envelope."
	msgContradictory = "Tool result success and error fields are contradictory."
	msgStatus        = "Tool result HTTP status must be an integer between 100 and 599."
	msgAuthority     = "Tool effects require an explicit host authority attestation."
	msgFailure       = "Failed tool results may carry only a host-attested approval denial and its correlated request id."
)

var _ = Describe("CheckEnvelope", func() {
	It("accepts well-formed results", func() {
		Expect(effects.CheckEnvelope(okResult("workspace.read", nil))).To(Succeed())
		Expect(effects.CheckEnvelope(okResult("workspace.read", &port.Effects{InspectedPaths: []string{"a"}}))).To(Succeed())
		Expect(effects.CheckEnvelope(failResult("workspace.read", nil))).To(Succeed())
		Expect(effects.CheckEnvelope(failResult("command.run", &port.Effects{Approval: "denied"}))).To(Succeed())
		Expect(effects.CheckEnvelope(failResult("command.run", &port.Effects{Approval: "denied", ApprovalRequestID: "run-1:call-1"}))).To(Succeed())
		Expect(effects.CheckEnvelope(failResult("command.run", &port.Effects{}))).To(Succeed())
	})

	It("carries the TOOL_EXECUTION code", func() {
		err := effects.CheckEnvelope(okResult(" ", nil))
		Expect(errors.Is(err, effects.ErrToolExecution)).To(BeTrue())
		Expect(err).To(MatchError("TOOL_EXECUTION: " + msgMalformed))
		Expect(errors.Is(err, &effects.Error{Code: "OTHER"})).To(BeFalse())
	})

	DescribeTable("rejects",
		func(r port.ToolResult, msg string) { failWith(effects.CheckEnvelope(r), msg) },
		Entry("a blank canonical ID", okResult("", nil), msgMalformed),
		Entry("ok with an error", func() port.ToolResult {
			r := okResult("workspace.read", nil)
			r.Error = &port.ToolError{Code: "X"}
			return r
		}(), msgContradictory),
		Entry("a failure without an error", func() port.ToolResult {
			r := failResult("workspace.read", nil)
			r.Error = nil
			return r
		}(), msgContradictory),
		Entry("status 99", withStatus(99), msgStatus),
		Entry("status 600", withStatus(600), msgStatus),
		Entry("effects without authority", func() port.ToolResult {
			r := okResult("workspace.read", &port.Effects{})
			r.EffectsAuthority = ""
			return r
		}(), msgAuthority),
		Entry("effects with another authority", func() port.ToolResult {
			r := okResult("workspace.read", &port.Effects{})
			r.EffectsAuthority = "tool"
			return r
		}(), msgAuthority),
		Entry("authority without effects", func() port.ToolResult {
			r := okResult("workspace.read", nil)
			r.EffectsAuthority = "host"
			return r
		}(), msgAuthority),
		Entry("a failure with writes", failResult("workspace.write", &port.Effects{Writes: []port.Write{effects.CreateFile("a", "h")}}), msgFailure),
		Entry("a failure with an empty inspection list", failResult("workspace.read", &port.Effects{InspectedPaths: []string{}}), msgFailure),
		Entry("a failure with validations", failResult("project.validate", &port.Effects{Validations: []port.ValidationEntry{}}), msgFailure),
		Entry("a failure with a state version", failResult("workspace.write", &port.Effects{StateVersion: "v1"}), msgFailure),
		Entry("a failure with a next action", failResult("task.checkpoint", &port.Effects{NextAction: "x"}), msgFailure),
		Entry("a failure with a plan", failResult("task.checkpoint", &port.Effects{Plan: &port.Plan{}}), msgFailure),
		Entry("a failure with a diff review", failResult("git.exec", &port.Effects{DiffReview: &port.DiffReview{DiffHash: "h"}}), msgFailure),
		Entry("a failure with research", failResult("research.fetch", &port.Effects{ResearchSources: []port.ResearchSource{}}), msgFailure),
		Entry("a failure with satisfied criteria", failResult("user.ask", &port.Effects{AcceptanceCriteriaSatisfied: []string{}}), msgFailure),
		Entry("a failure with waived criteria", failResult("user.ask", &port.Effects{AcceptanceCriteriaWaived: []string{"c"}}), msgFailure),
		Entry("a failure with approval granted", failResult("command.run", &port.Effects{Approval: "granted"}), msgFailure),
		Entry("a failure with approval pending", failResult("command.run", &port.Effects{Approval: "pending", ApprovalRequestID: "r"}), msgFailure),
		Entry("a failure with a request ID but no denial", failResult("command.run", &port.Effects{ApprovalRequestID: "r"}), msgFailure),
		Entry("a failure with a blank request ID", failResult("command.run", &port.Effects{Approval: "denied", ApprovalRequestID: " "}), msgFailure),
	)

	It("checks the status of failures only", func() {
		Expect(effects.CheckEnvelope(withStatus(100))).To(Succeed())
		Expect(effects.CheckEnvelope(withStatus(599))).To(Succeed())
		// A status travels in error, which only a failure carries: an ok
		// result with one is contradictory, whatever its status.
		for _, s := range []int{200, 600} {
			r := withStatus(s)
			r.OK = true
			failWith(effects.CheckEnvelope(r), "Tool result success and error fields are contradictory.")
		}
	})
})

func withStatus(s int) port.ToolResult {
	r := failResult("research.fetch", nil)
	r.Error.Status = &s
	return r
}

var _ = Describe("CheckIdentity", func() {
	It("accepts the mapped canonical ID", func() {
		Expect(effects.CheckIdentity(okResult("workspace.read", nil), "read_file", "workspace.read")).To(Succeed())
	})
	It("rejects another ID", func() {
		failWith(effects.CheckIdentity(okResult("workspace.write", nil), "read_file", "workspace.read"),
			"Tool result identity mismatch for read_file; expected workspace.read.")
	})
	It("rejects an unmapped name", func() {
		failWith(effects.CheckIdentity(okResult("workspace.read", nil), "cat", ""),
			"Tool result identity mismatch for cat; expected <missing>.")
	})
})

var _ = Describe("CheckMode", func() {
	writes := &port.Effects{Writes: []port.Write{effects.CreateFile("a", "h")}}
	DescribeTable("rejects successful writes in read-only modes",
		func(mode string) {
			failWith(effects.CheckMode(okResult("command.run", writes), mode), mode+" tool result reported a workspace mutation.")
		},
		Entry(nil, "review_only"),
		Entry(nil, "validate_only"),
	)
	It("allows writes in the other modes and results without writes", func() {
		for _, mode := range []string{"auto", "scaffold", "refactor"} {
			Expect(effects.CheckMode(okResult("command.run", writes), mode)).To(Succeed())
		}
		Expect(effects.CheckMode(okResult("project.validate", &port.Effects{StateVersion: "v"}), "validate_only")).To(Succeed())
		Expect(effects.CheckMode(okResult("command.run", &port.Effects{Writes: []port.Write{}}), "review_only")).To(Succeed())
	})
})

var _ = Describe("capabilities", func() {
	It("derives the needed capabilities from present fields", func() {
		Expect(effects.RequiredCapabilities(nil)).To(BeEmpty())
		Expect(effects.RequiredCapabilities(&port.Effects{})).To(BeEmpty())
		Expect(effects.RequiredCapabilities(&port.Effects{InspectedPaths: []string{}, Writes: []port.Write{}})).To(BeEmpty())
		Expect(effects.RequiredCapabilities(&port.Effects{ApprovalRequestID: "r"})).To(Equal([]string{"approval"}))
		Expect(effects.RequiredCapabilities(&port.Effects{NextAction: "n"})).To(Equal([]string{"plan"}))
		all := &port.Effects{
			Approval: "granted", AcceptanceCriteriaSatisfied: []string{"c"}, AcceptanceCriteriaWaived: []string{"d"},
			DiffReview: &port.DiffReview{DiffHash: "h"}, InspectedPaths: []string{"a"}, Plan: &port.Plan{},
			ResearchSources: []port.ResearchSource{{}}, StateVersion: "v", Validations: []port.ValidationEntry{{}},
			Writes: []port.Write{{}},
		}
		Expect(effects.RequiredCapabilities(all)).To(Equal(effects.Capabilities()))
	})

	It("accepts effects within the declared capabilities", func() {
		caps, _ := effects.CoreCapabilities("git.exec")
		r := okResult("git.exec", &port.Effects{Approval: "not_required", DiffReview: &port.DiffReview{DiffHash: "h"}, InspectedPaths: []string{"a"}})
		Expect(effects.CheckCapabilities(r, caps)).To(Succeed())
		Expect(effects.CheckCapabilities(okResult("git.exec", nil), nil)).To(Succeed())
	})

	It("names every undeclared effect in canonical order", func() {
		caps, _ := effects.CoreCapabilities("workspace.read")
		r := okResult("workspace.read", &port.Effects{
			InspectedPaths: []string{"a"}, StateVersion: "v", Writes: []port.Write{effects.CreateFile("a", "h")},
			DiffReview: &port.DiffReview{DiffHash: "h"},
		})
		failWith(effects.CheckCapabilities(r, caps), "Tool workspace.read produced undeclared host effects: diff_review, state_version, write.")
	})

	It("rejects a forged research source from a read tool", func() {
		caps, _ := effects.CoreCapabilities("workspace.read")
		r := okResult("workspace.read", &port.Effects{ResearchSources: []port.ResearchSource{{Kind: "search", URL: "https://a.example", Summary: "s"}}})
		failWith(effects.CheckCapabilities(r, caps), "Tool workspace.read produced undeclared host effects: research.")
	})
})
