package run_test

import (
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/doubles/model"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// commandTool is a command.run tool with the approval capability whose
// results come from h.
func commandTool(h func(port.ToolCall) (port.ToolResult, error)) testTool {
	return testTool{name: "run_command", canonical: "command.run", caps: []string{"approval", "state_version", "write"}, handle: h}
}

// approvalEnv is a scripted env whose run_command asks for approval-1.
func approvalEnv(rounds ...model.Round) *env {
	e := scripted(rounds...)
	e.exec.tools = append(e.exec.tools, commandTool(func(port.ToolCall) (port.ToolResult, error) {
		return ok("command.run", &port.Effects{Approval: "pending", ApprovalRequestID: "approval-1"}), nil
	}))
	return e
}

var _ = Describe("approvals (RUNTIME §14, §23)", func() {
	It("blocks the rest of a batch, correlates both results, and continues after a grant", func() {
		m := model.NewScripted([]model.Round{calls(call("workspace_list", "l")), calls(call("run_command", "a"), call("workspace_list", "b")),
			calls(call("workspace_list", "c")), text("Approved and inspected.")})
		e := approvalEnv()
		e.model = m
		e.onEvent = func(c *run.Controller, ev run.Event) {
			if ev.Type == run.EventToolResult && ev.Call.ToolCallID == "b" {
				Expect(c.ResolveApproval(ev.RunID, "approval-1", run.DecisionGranted)).To(BeTrue())
				Expect(c.ResolveApproval(ev.RunID, "approval-1", run.DecisionGranted)).To(BeFalse(), "no longer pending")
			}
		}
		r := e.start(baseRequest("run-approval"))
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
		Expect(e.exec.names()).To(Equal([]string{"workspace_list", "run_command", "workspace_list"}))
		var blocked *port.ToolResult
		for _, c := range r.Calls {
			if c.Call.ToolCallID == "b" {
				blocked = c.Result
				Expect(c.Dispatched).To(BeFalse())
			}
		}
		Expect(blocked.Error.Code).To(Equal("BATCH_BLOCKED_BY_APPROVAL"))
		Expect(blocked.Content).To(Equal(`{"error":{"code":"BATCH_BLOCKED_BY_APPROVAL","message":"This call was not executed because an earlier call in the same batch is awaiting host approval.","retryable":true},"ok":false}`))
		var correlated []string
		req3 := m.Requests()[2]
		for _, msg := range req3.Messages {
			if msg.Role == "tool" {
				correlated = append(correlated, msg.ToolCallID)
			}
		}
		Expect(correlated).To(Equal([]string{"l", "a", "b"}))
		Expect(req3.Messages[len(req3.Messages)-1].Content).To(ContainSubstring("[GALAXY APPROVAL DECISION - trusted host state]\nrequest_id: approval-1\ndecision: granted"))
		Expect(transitions(r)).To(ContainElements("inspecting->waiting_approval", "waiting_approval->inspecting"))
	})

	It("ends paused with the pending approval in the pause checkpoint", func() {
		e := approvalEnv(calls(call("run_command", "a")), text("never"))
		e.onEvent = func(c *run.Controller, ev run.Event) {
			if ev.Type == run.EventToolResult {
				c.Pause(ev.RunID, "")
			}
		}
		r := e.start(baseRequest("run-approval-pause"))
		Expect(r.Status).To(Equal(run.StatusPaused))
		Expect(string(r.Checkpoint.Reason)).To(Equal("pause"))
		Expect(r.Checkpoint.PendingApprovals).To(HaveLen(1))
		Expect(r.Checkpoint.PendingApprovals[0].RequestID).To(Equal("approval-1"))
		Expect(transitions(r)).To(ContainElement("waiting_approval->paused"))
	})

	It("records a denial and tells the model not to retry unchanged", func() {
		m := model.NewScripted([]model.Round{calls(call("workspace_list", "l")), calls(call("run_command", "a")), text("Denied; reporting.")})
		e := approvalEnv()
		e.model = m
		e.onEvent = func(c *run.Controller, ev run.Event) {
			if ev.Type == run.EventToolResult && ev.Call.ToolCallID == "a" {
				go c.ResolveApproval(ev.RunID, "approval-1", run.DecisionDenied)
			}
		}
		r := e.start(baseRequest("run-approval-denied"))
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
		last := m.Requests()[2].Messages
		Expect(last[len(last)-1].Content).To(ContainSubstring("Do not retry the denied operation unchanged."))
	})
})
