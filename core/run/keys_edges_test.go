package run_test

import (
	"strings"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/run"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

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
