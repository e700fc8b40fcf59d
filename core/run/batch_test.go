package run_test

import (
	"errors"
	"math"
	"strings"

	"github.com/galaxy-stack/conform/core/canon"
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
		r := e.start(baseRequest("run-two"))
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
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
		r := e.start(baseRequest("run-continue"))
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
		Expect(e.exec.names()).To(Equal([]string{"project_validate", "workspace_list"}))
	})

	It("stops at an adapter throw: unknown outcome, durable in the failure checkpoint", func() {
		e := scripted(calls(call("workspace_list", "a"), call("workspace_list", "b")), text("never"))
		st := store.NewRunStore()
		e.store, e.verifier = st, newVerifier()
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
			r := e.start(baseRequest(runID))
			Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
			Expect(e.exec.contexts).To(HaveLen(1))
			Expect(e.exec.contexts[0].IdempotencyKey).To(Equal(wantIdempotencyKey(runID, toolCallID, name, args)))
		},
		Entry("a run ID longer than the other members together", "run-"+long, "l", "workspace_list"),
		Entry("a call ID longer than the other members together", "run-long-call-id", "call-"+long, "workspace_list"),
		Entry("a tool name longer than the other members together", "run-long-name", "l", "list_"+long),
		Entry("members shorter together than the arguments hash", "r", "c", "ls"),
	)
})
