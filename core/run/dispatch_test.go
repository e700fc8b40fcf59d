package run_test

import (
	"context"
	"errors"
	"math"
	"strings"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/doubles/model"
	"github.com/galaxy-stack/conform/doubles/store"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("batch preflight and dispatch (RUNTIME §13–§15, §29)", func() {
	It("runs same-name calls in order and correlates each in the next request", func() {
		m := model.NewScripted([]model.Round{calls(call("workspace_list", "a"), call("workspace_list", "b")), text("Both listed.")})
		e := newEnv(m)
		e.complete(baseRequest("run-two"))
		Expect(e.exec.names()).To(Equal([]string{"workspace_list", "workspace_list"}))
		var ids []string
		for _, msg := range m.Requests()[1].Messages {
			if msg.Role == "tool" {
				ids = append(ids, msg.ToolCallID)
			}
		}
		Expect(ids).To(Equal([]string{"a", "b"}))
		Expect(e.exec.contexts[0].IdempotencyKey).To(MatchRegexp(`^sha256:[0-9a-f]{64}$`))
		Expect(e.exec.contexts[0].IdempotencyKey).NotTo(Equal(e.exec.contexts[1].IdempotencyKey))
		Expect(e.exec.contexts[0].TimeoutMs).To(Equal(120000))
	})

	DescribeTable("preflight failures execute nothing",
		func(round model.Round, budget float64, code, message string) {
			e := scripted(round, text("never"))
			req := baseRequest("run-preflight")
			if budget > 0 {
				req.Budget.MaxToolCalls = run.N(budget)
			}
			r := e.start(req)
			Expect(r.ErrorCode).To(Equal(code))
			Expect(r.ErrorMessage).To(HavePrefix(message))
			Expect(e.exec.names()).To(BeEmpty())
		},
		Entry("an unknown tool (no alias table, DECISIONS 7)", calls(call("workspace_list", "a"), call("bash", "b")), 0.0,
			run.CodeInvalidModelStream, "Tool bash was not active in the registry snapshot shown to the model for this round."),
		Entry("a batch over the remaining budget", calls(call("workspace_list", "a"), call("workspace_list", "b")), 1.0,
			run.CodeMaxToolCalls, "AI Coder reached maxToolCalls=1."),
		Entry("non-canonical arguments", calls(call("workspace_list", "a"), model.ToolCall{ToolCallID: "b", ToolName: "workspace_list", Arguments: map[string]any{"n": math.Inf(1)}}), 0.0,
			run.CodeInvalidModelStream, "Tool arguments are not canonical JSON: canon: canonical JSON rejects non-finite numbers"),
	)

	It("refuses duplicate batch ids before executing anything", func() {
		m := newFnModel(roundCalls("workspace_list", "same", "same"))
		e := newEnv(m)
		r := e.start(baseRequest("run-dup"))
		Expect(r.ErrorCode).To(Equal(run.CodeInvalidModelStream))
		Expect(e.exec.names()).To(BeEmpty())
	})

	It("refuses a call to a tool activated by an earlier call of the same batch", func() {
		e := scripted(calls(call("workspace_list", "a"), call("lazy_read", "b")), text("never"))
		lazy := testTool{name: "lazy_read", canonical: "lazy_read", caps: []string{"inspect"}}
		e.exec.activateAfter = []testTool{lazy}
		r := e.start(baseRequest("run-lazy"))
		Expect(r.ErrorCode).To(Equal(run.CodeInvalidModelStream))
		Expect(r.ErrorMessage).To(ContainSubstring("not active in the registry snapshot"))
		Expect(e.exec.names()).To(BeEmpty())
	})

	It("refuses a toolCallId reused across rounds", func() {
		e := scripted(calls(call("workspace_list", "a")), calls(call("workspace_list", "a")))
		r := e.start(baseRequest("run-reuse"))
		Expect(r.ErrorMessage).To(Equal("toolCallId a was already used in this run."))
		Expect(e.exec.names()).To(Equal([]string{"workspace_list"}))
	})

	It("continues a batch after a structured failure", func() {
		e := scripted(calls(call("project_validate", "a"), call("workspace_list", "b")), text("Done."))
		e.exec.set("project_validate", func(port.ToolCall) (port.ToolResult, error) { return failed("project_validate", "IO_ERROR"), nil })
		e.complete(baseRequest("run-continue"))
		Expect(e.exec.names()).To(Equal([]string{"project_validate", "workspace_list"}))
	})

	It("stops at an adapter throw: unknown outcome, durable in the failure checkpoint", func() {
		e := scripted(calls(call("workspace_list", "a"), call("workspace_list", "b")), text("never"))
		st := e.withStore()
		e.exec.set("workspace_list", func(port.ToolCall) (port.ToolResult, error) { return port.ToolResult{}, errors.New("adapter exploded") })
		r := e.start(baseRequest("run-throw"))
		Expect(r.Status).To(Equal(run.StatusFailed))
		Expect(r.ErrorCode).To(Equal(run.CodeToolExecution))
		Expect(r.ErrorMessage).To(ContainSubstring("side-effect outcome is unknown"))
		Expect(e.exec.names()).To(Equal([]string{"workspace_list"}))
		Expect(r.Checkpoint).NotTo(BeNil())
		Expect(r.Checkpoint.Reason).To(BeEquivalentTo("failure"))
		Expect(outcomes(r.Checkpoint)).To(Equal([]string{"unknown"}))
		Expect(strings.Join(r.Checkpoint.OpenProblems, "\n")).To(ContainSubstring("outcome is unknown"))
		Expect(st.CheckpointReasons()).To(Equal([]string{"failure"}))
	})

	It("fails TOOL_TIMEOUT when a call outlives its dispatch guard on the clock port", func() {
		e := scripted(calls(model.ToolCall{ToolCallID: "a", ToolName: "workspace_list", Arguments: map[string]any{"timeoutMs": 1000.0}}), text("never"))
		e.exec.set("workspace_list", func(port.ToolCall) (port.ToolResult, error) {
			e.clock.Advance(61_000 * 1e6)
			return ok("workspace_list", nil), nil
		})
		r := e.start(baseRequest("run-guard"))
		Expect(r.ErrorCode).To(Equal(run.CodeToolTimeout))
		Expect(r.ErrorMessage).To(Equal("Tool workspace_list did not return within 61000ms."))
	})

	It("fails TOOL_TIMEOUT when the guard timer fires on a hung call, and cancels the call", func() {
		e := scripted(calls(call("workspace_list", "a")), text("never"))
		canceled := make(chan struct{})
		e.exec.set("workspace_list", func(port.ToolCall) (port.ToolResult, error) { <-canceled; return port.ToolResult{}, errors.New("late") })
		e.timers = fireAt(180_000)
		r := e.start(baseRequest("run-hung"))
		close(canceled)
		Expect(r.ErrorCode).To(Equal(run.CodeToolTimeout))
		Expect(r.ErrorMessage).To(Equal("Tool workspace_list did not return within 180000ms."))
	})
})

// wantIdempotencyKey is RUNTIME §15 step 6 computed with the generic
// canonical encoder.
func wantIdempotencyKey(runID, toolCallID, name string, args map[string]any) string {
	GinkgoHelper()
	argsHash, err := canon.Hash(args)
	Expect(err).NotTo(HaveOccurred())
	key, err := canon.Hash(map[string]any{"argumentsHash": argsHash, "name": name, "runId": runID, "toolCallId": toolCallID})
	Expect(err).NotTo(HaveOccurred())
	return key
}

// listTool is an inspection tool under the model-facing name.
func listTool(name string) testTool {
	return testTool{name: name, canonical: "workspace_list", caps: []string{"inspect"}, handle: func(port.ToolCall) (port.ToolResult, error) {
		return ok("workspace_list", &port.Effects{InspectedPaths: []string{"src"}}), nil
	}}
}

var _ = Describe("idempotency keys at their edges (RUNTIME §15 step 6)", func() {
	long := strings.Repeat("x", 300)
	args := map[string]any{"path": "src/a.ts"}
	DescribeTable("keys a call by the runtime hash of its run, call ID, name and arguments hash, whatever their lengths",
		func(runID, toolCallID, name string) {
			e := scripted(calls(argCall(name, toolCallID, args)), text("Inspected and reported."))
			e.exec = newExec(listTool(name))
			e.complete(baseRequest(runID))
			Expect(e.exec.contexts).To(HaveLen(1))
			Expect(e.exec.contexts[0].IdempotencyKey).To(Equal(wantIdempotencyKey(runID, toolCallID, name, args)))
		},
		Entry("a run ID longer than the other members together", "run-"+long, "l", "workspace_list"),
		Entry("a call ID longer than the other members together", "run-long-call-id", "call-"+long, "workspace_list"),
		Entry("a tool name longer than the other members together", "run-long-name", "l", "list_"+long),
		Entry("members shorter together than the arguments hash", "r", "c", "ls"),
	)
})

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
		r := e.complete(baseRequest("run-approval"))
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
		e.onEvent = pauseAfterFirstResult
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
		e.complete(baseRequest("run-approval-denied"))
		last := m.Requests()[2].Messages
		Expect(last[len(last)-1].Content).To(ContainSubstring("Do not retry the denied operation unchanged."))
	})
})

// decisionTexts lists the request_id line of every approval decision
// feedback in the messages of req, in order.
func decisionTexts(req port.RoundRequest) []string {
	var out []string
	for _, msg := range req.Messages {
		if strings.Contains(msg.Content, "[GALAXY APPROVAL DECISION - trusted host state]") {
			for _, part := range strings.Split(msg.Content, "[GALAXY APPROVAL DECISION - trusted host state]")[1:] {
				out = append(out, strings.SplitN(strings.TrimSpace(part), "\n", 2)[0])
			}
		}
	}
	return out
}

var _ = Describe("approval decisions at their edges (RUNTIME §16.3, §23)", func() {
	It("returns to executing, not inspecting, after an approval asked for while executing", func() {
		e := approvalEnv(calls(call("workspace_write", "w")), calls(call("run_command", "a")), text("Done."), text("Done."), text("Done."))
		e.verifier = newVerifier()
		e.onEvent = func(c *run.Controller, ev run.Event) {
			if ev.Type == run.EventToolResult && ev.Call.ToolCallID == "a" {
				c.ResolveApproval(ev.RunID, "approval-1", run.DecisionGranted)
			}
		}
		r := e.start(baseRequest("run-approval-return-executing"))
		Expect(transitions(r)).To(ContainElements("inspecting->executing", "executing->waiting_approval", "waiting_approval->executing"))
		Expect(transitions(r)).NotTo(ContainElement("waiting_approval->inspecting"))
	})

	It("records the denial a failed result carries", func() {
		e := scripted(calls(call("run_command", "a")), text("never"))
		e.exec.tools = append(e.exec.tools, commandTool(func(port.ToolCall) (port.ToolResult, error) {
			r := failed("command.run", "APPROVAL_DENIED")
			r.Effects, r.EffectsAuthority = &port.Effects{Approval: "denied", ApprovalRequestID: "approval-7"}, "host"
			return r, nil
		}))
		e.withStore()
		r := e.pausedAfter("a", baseRequest("run-failed-denial"))
		Expect(r.Checkpoint.Approvals).To(Equal([]string{"denied:approval-7:run_command:a"}))
	})

	It("records a decision only for a result that grants or denies, not for other successful effects", func() {
		e := scripted(calls(call("workspace_list", "l")), calls(call("run_command", "g")), text("never"))
		e.exec.tools = append(e.exec.tools, commandTool(func(port.ToolCall) (port.ToolResult, error) {
			return ok("command.run", &port.Effects{Approval: "granted", ApprovalRequestID: "approval-9"}), nil
		}))
		e.withStore()
		r := e.pausedAfter("g", baseRequest("run-granted-result"))
		Expect(r.Checkpoint.Approvals).To(Equal([]string{"granted:approval-9:run_command:g"}))
	})

	It("applies the other effects of a result that grants an approval", func() {
		e := scripted(calls(call("run_command", "g")), text("Granted and written."))
		e.exec.tools = append(e.exec.tools, commandTool(func(port.ToolCall) (port.ToolResult, error) {
			return ok("command.run", &port.Effects{Approval: "granted", ApprovalRequestID: "approval-9",
				Writes: []port.Write{{Path: "src/a.ts", BeforeHash: sp("before"), AfterHash: sp("after")}}}), nil
		}))
		e.verifier = newVerifier()
		r := e.start(baseRequest("run-granted-with-write"))
		Expect(r.Writes).To(HaveLen(1))
		Expect(r.Writes[0].ToolCallID).To(Equal("g"))
		Expect(transitions(r)).To(ContainElement("inspecting->executing"))
	})

	It("leaves the return to the queued decision when a later call of the batch carries a grant with no approval pending", func() {
		e := approvalEnv(calls(call("workspace_list", "l")), calls(call("run_command", "a"), call("approve", "b")),
			text("Approved."), text("Approved."), text("Approved."))
		e.exec.tools = append(e.exec.tools, testTool{name: "approve", canonical: "approval.record", caps: []string{"approval"},
			handle: func(port.ToolCall) (port.ToolResult, error) {
				return ok("approval.record", &port.Effects{Approval: "granted", ApprovalRequestID: "approval-1"}), nil
			}})
		e.withStore()
		e.onEvent = func(c *run.Controller, ev run.Event) {
			// Decided before the batch looks for pending approvals, so b runs.
			if ev.Type == run.EventToolResult && ev.Call.ToolCallID == "a" {
				c.ResolveApproval(ev.RunID, "approval-1", run.DecisionGranted)
			}
		}
		r := e.complete(baseRequest("run-grant-without-pending"))
		Expect(e.exec.names()).To(Equal([]string{"workspace_list", "run_command", "approve"}))
		Expect(transitions(r)).To(ContainElements("inspecting->waiting_approval", "waiting_approval->inspecting"))
	})

	It("counts an approval-blocked call as a tool call", func() {
		e := approvalEnv(calls(call("run_command", "a"), call("workspace_list", "b")), text("never"))
		e.withStore()
		r := e.pausedAfter("b", baseRequest("run-blocked-counted"))
		Expect(r.Checkpoint.Totals.ToolCalls).To(BeEquivalentTo(2))
		Expect(e.exec.names()).To(Equal([]string{"run_command"}))
	})

	It("records every decision resolved while waiting, not only the one that ends the wait", func() {
		st, v := store.NewRunStore(), newVerifier()
		e := approvalEnv(calls(call("run_command", "a")), text("never"))
		e.store, e.verifier = st, v
		r := e.pausedAfter("a", baseRequest("run-two-pending"))
		Expect(r.Checkpoint.PendingApprovals).To(HaveLen(1))

		// A second pending approval in the stored pause checkpoint: the
		// only way a run holds two at once.
		p := r.Checkpoint.Payload
		second := p.PendingApprovals[0]
		second.RequestID = "approval-2"
		p.PendingApprovals = append(p.PendingApprovals, second)
		cp, err := checkpoint.Create(p, r.Checkpoint.Reason, r.Checkpoint.CreatedAt)
		Expect(err).NotTo(HaveOccurred())
		raw, err := checkpoint.Serialize(cp)
		Expect(err).NotTo(HaveOccurred())
		_, err = st.SaveCheckpoint(context.Background(), raw)
		Expect(err).NotTo(HaveOccurred())

		m := model.NewScripted([]model.Round{text("Both decided."), text("Both decided."), text("Both decided.")})
		again := scripted()
		again.model, again.exec, again.store, again.verifier = m, e.exec, st, v
		resolved := []bool{}
		again.onEvent = func(c *run.Controller, ev run.Event) {
			if ev.Type == run.EventState && ev.Transition.To == run.StateWaitingApproval && len(resolved) == 0 {
				resolved = append(resolved, c.ResolveApproval(ev.RunID, "approval-1", run.DecisionGranted),
					c.ResolveApproval(ev.RunID, "approval-2", run.DecisionDenied))
			}
		}
		r = again.resume(baseRequest("run-two-pending"))
		Expect(resolved).To(Equal([]bool{true, true}))
		Expect(m.Requests()).NotTo(BeEmpty(), r.ErrorMessage)
		Expect(decisionTexts(m.Requests()[0])).To(Equal([]string{"request_id: approval-1", "request_id: approval-2"}))
	})
})
