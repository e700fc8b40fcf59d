package run_test

import (
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/doubles/model"
	"github.com/galaxy-stack/conform/doubles/store"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// validationSteps answers project_validate with one validation of id unit
// per call, with the scripted status and detail, in order.
func validationSteps(steps ...[2]string) func(port.ToolCall) (port.ToolResult, error) {
	n := 0
	return func(port.ToolCall) (port.ToolResult, error) {
		st := steps[n]
		n++
		return ok("project_validate", &port.Effects{Validations: []port.ValidationEntry{{ID: "unit", Detail: st[1], Scope: "workspace", Status: st[0]}}}), nil
	}
}

var _ = Describe("effect records at their edges (RUNTIME §15, §16.3, §16.5, §16.6)", func() {
	It("clears the open problem of an earlier failed validation when the same id passes with another detail", func() {
		e := scripted(calls(call("workspace_write", "w")), calls(argCall("project_validate", "v1", map[string]any{"try": 1.0})),
			calls(argCall("project_validate", "v2", map[string]any{"try": 2.0})), text("never"))
		e.store, e.verifier = store.NewRunStore(), newVerifier()
		e.exec.set("project_validate", validationSteps([2]string{"failed", "unit tests fail"}, [2]string{"passed", "unit tests pass"}))
		e.onEvent = pauseAfter("v2")
		r := e.start(baseRequest("run-validation-supersede"))
		Expect(r.Status).To(Equal(run.StatusPaused), r.ErrorMessage)
		Expect(r.Checkpoint.OpenProblems).To(BeEmpty())
		Expect(r.Checkpoint.Validation).To(HaveLen(2))
	})

	It("replaces a repeated failure of a validation in place and keeps only its latest detail open", func() {
		e := scripted(calls(call("workspace_write", "w")), calls(argCall("project_validate", "v1", map[string]any{"try": 1.0})),
			calls(argCall("project_validate", "v2", map[string]any{"try": 2.0})), text("never"))
		e.store, e.verifier = store.NewRunStore(), newVerifier()
		e.exec.set("project_validate", validationSteps([2]string{"failed", "3 unit tests fail"}, [2]string{"failed", "2 unit tests fail"}))
		e.onEvent = pauseAfter("v2")
		r := e.start(baseRequest("run-validation-refail"))
		Expect(r.Status).To(Equal(run.StatusPaused), r.ErrorMessage)
		Expect(r.Checkpoint.OpenProblems).To(Equal([]string{"2 unit tests fail"}))
		Expect(r.Checkpoint.Validation).To(HaveLen(1))
		Expect(r.Checkpoint.Validation[0].Detail).To(Equal("2 unit tests fail"))
	})

	It("keeps a research source's title, and leaves it absent when the source has none", func() {
		titled := fetched("https://docs.example/guide", "guide")
		titled.Title = "The guide"
		sources := map[string][]port.ResearchSource{"r1": {titled, fetched("https://docs.example/untitled", "untitled")}}
		e := scripted(calls(call("workspace_list", "l"), model.ToolCall{ToolCallID: "r1", ToolName: "research_fetch", Arguments: map[string]any{}}),
			text("Researched."))
		e.exec.tools = append(e.exec.tools, researchTool(sources))
		kept := researchOnFailure(e, "run-research-title")
		Expect(kept).To(HaveLen(2))
		Expect(kept[0].Title).To(HaveValue(Equal("The guide")))
		Expect(kept[1].Title).To(BeNil())
	})

	It("digests a call's own arguments in its lastToolCalls record", func() {
		e := scripted(calls(argCall("workspace_list", "l", map[string]any{"path": "src", "depth": 2.0})), text("never"))
		e.store, e.verifier = store.NewRunStore(), newVerifier()
		e.onEvent = pauseAfter("l")
		r := e.start(baseRequest("run-argument-digest"))
		Expect(r.Status).To(Equal(run.StatusPaused), r.ErrorMessage)
		Expect(r.Checkpoint.LastToolCalls).To(HaveLen(1))
		Expect(r.Checkpoint.LastToolCalls[0].ArgumentDigest).To(Equal(`{"depth":2,"path":"src"}`))
	})

	It("makes a failed workspace capture while applying effects an unknown outcome, not a bare capture error", func() {
		v := newVerifier()
		e := scripted(calls(call("workspace_write", "w")), text("never"))
		e.verifier = v
		e.exec.set("workspace_write", func(port.ToolCall) (port.ToolResult, error) {
			v.mu.Lock()
			v.failCapture = true
			v.mu.Unlock()
			return ok("workspace_write", &port.Effects{Writes: []port.Write{{Path: "src/a.ts", BeforeHash: sp("a"), AfterHash: sp("b")}}}), nil
		})
		r := e.start(baseRequest("run-capture-unknown"))
		Expect(r.ErrorCode).To(Equal(run.CodeToolExecution))
		Expect(r.ErrorMessage).To(Equal("Tool workspace_write returned after a possible side effect, but its evidence could not be durably applied; " +
			"outcome is unknown. Workspace evidence capture failed: capture failed"))
	})
})
