package run_test

import (
	"strings"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/prompt"
	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/doubles/store"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// writeRun is the full evidence path: inspect, write, validate, review.
func writeRun() *env {
	e := scripted(calls(call("workspace_list", "l")), calls(call("workspace_write", "w")), calls(call("project_validate", "v")),
		calls(call("git_diff", "d")), text("Changed src/a.ts, validated and reviewed."))
	e.verifier = newVerifier()
	return e
}

var _ = Describe("effects (RUNTIME §16, CONTRACTS §7.5–§7.7)", func() {
	It("records write, validation and diff evidence with the call's sequence and fingerprint", func() {
		e := writeRun()
		r := e.start(baseRequest("run-write"))
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
		Expect(r.Writes).To(HaveLen(1))
		Expect(r.Writes[0].Sequence).To(BeEquivalentTo(2))
		Expect(r.Writes[0].WorkspaceFingerprint).To(Equal("sha256:deterministic-workspace"))
		Expect(r.Validation).To(HaveLen(1))
		Expect(r.Validation[0].Sequence).To(BeEquivalentTo(3))
		Expect(transitions(r)).To(ContainElements("inspecting->executing", "executing->validating", "validating->reviewing", "reviewing->completed"))
	})

	It("fails TOOL_EXECUTION on effects the tool did not declare (a forged write)", func() {
		e := scripted(calls(call("workspace_list", "l")), text("never"))
		e.verifier = newVerifier()
		e.exec.set("workspace_list", func(port.ToolCall) (port.ToolResult, error) {
			return ok("workspace_list", &port.Effects{Writes: []port.Write{{Path: "src/a.ts", BeforeHash: sp("a"), AfterHash: sp("b")}}}), nil
		})
		r := e.start(baseRequest("run-forged"))
		Expect(r.ErrorCode).To(Equal(run.CodeToolExecution))
		Expect(r.ErrorMessage).To(ContainSubstring("Tool workspace_list produced undeclared host effects: write."))
		Expect(r.Writes).To(BeEmpty())
	})

	It("treats a failed result with write effects as an unknown outcome", func() {
		e := scripted(calls(call("workspace_list", "l")), calls(call("workspace_write", "w")), text("never"))
		e.verifier, e.store = newVerifier(), store.NewRunStore()
		e.exec.set("workspace_write", func(port.ToolCall) (port.ToolResult, error) {
			r := failed("workspace_write", "IO_ERROR")
			r.Effects, r.EffectsAuthority = &port.Effects{Writes: []port.Write{{Path: "src/a.ts", BeforeHash: sp("a"), AfterHash: sp("b")}}}, "host"
			return r, nil
		})
		r := e.start(baseRequest("run-failed-write"))
		Expect(r.ErrorCode).To(Equal(run.CodeToolExecution))
		Expect(r.Writes).To(BeEmpty())
		Expect(outcomes(r.Checkpoint)).To(Equal([]string{"succeeded", "unknown"}))
	})

	It("makes malformed write evidence a durable unknown outcome that can never complete on resume", func() {
		st := store.NewRunStore()
		v := newVerifier()
		e := scripted(calls(call("workspace_list", "l")), calls(call("workspace_write", "w")), text("never"))
		e.verifier, e.store = v, st
		e.exec.set("workspace_write", func(port.ToolCall) (port.ToolResult, error) {
			return ok("workspace_write", &port.Effects{Writes: []port.Write{{Path: "src", BeforeKind: "missing", AfterKind: "directory", AfterHash: sp("not-null")}}}), nil
		})
		r := e.start(baseRequest("run-malformed"))
		Expect(r.ErrorCode).To(Equal(run.CodeToolExecution))
		Expect(r.ErrorMessage).To(ContainSubstring("outcome is unknown"))
		Expect(st.CheckpointReasons()).To(Equal([]string{"failure"}))

		again := scripted(text("Done."), text("Done."), text("Done."))
		again.verifier, again.store = v, st
		r = again.resume(baseRequest("run-malformed"))
		Expect(r.ErrorCode).To(Equal(run.CodeNoProgress), r.ErrorMessage)
		Expect(r.ErrorMessage).To(Equal("Completion gate failed 3 times."))
	})

	It("commits nothing when the workspace capture fails", func() {
		v := newVerifier()
		e := scripted(calls(call("workspace_list", "l")), calls(call("workspace_write", "w")), text("never"))
		e.verifier = v
		e.exec.set("workspace_write", func(port.ToolCall) (port.ToolResult, error) {
			v.failCapture = true
			return ok("workspace_write", &port.Effects{Writes: []port.Write{{Path: "src/a.ts", BeforeHash: sp("a"), AfterHash: sp("b")}}}), nil
		})
		r := e.start(baseRequest("run-capture"))
		Expect(r.ErrorCode).To(Equal(run.CodeToolExecution))
		Expect(r.ErrorMessage).To(ContainSubstring("Workspace evidence capture failed: capture failed"))
		Expect(r.Writes).To(BeEmpty())
		Expect(v.captures[0]).To(Equal([]port.ActiveFile{{Path: "src"}, {Path: "src/a.ts", ContentHash: sp("b")}}))
	})

	It("requires a verifier for write evidence", func() {
		e := scripted(calls(call("workspace_write", "w")), text("never"))
		r := e.start(baseRequest("run-no-verifier"))
		Expect(r.ErrorCode).To(Equal(run.CodeToolExecution))
		Expect(r.ErrorMessage).To(ContainSubstring("requires a host workspace evidence verifier"))
	})

	It("refuses a result whose canonical ID is not the routed one", func() {
		e := scripted(calls(call("workspace_list", "l")), text("never"))
		e.exec.set("workspace_list", func(port.ToolCall) (port.ToolResult, error) { return ok("workspace.read", nil), nil })
		r := e.start(baseRequest("run-identity"))
		Expect(r.ErrorMessage).To(ContainSubstring("Tool result identity mismatch for workspace_list; expected workspace_list."))
	})

	It("refuses a workspace mutation in review_only mode", func() {
		e := scripted(calls(call("workspace_write", "w")), text("never"))
		e.verifier = newVerifier()
		req := baseRequest("run-review-only")
		req.Mode = port.ModeReviewOnly
		r := e.start(req)
		Expect(r.ErrorMessage).To(ContainSubstring("review_only tool result reported a workspace mutation."))
	})

	It("keeps newest validation status: fail, fail, pass gives two records and no open problems", func() {
		statuses := []string{"failed", "failed", "passed"}
		e := scripted(calls(call("workspace_list", "l")), calls(call("project_validate", "v1")), calls(call("project_validate", "v2")),
			calls(call("project_validate", "v3")), text("Validated."))
		e.verifier = newVerifier()
		n := 0
		e.exec.set("project_validate", func(port.ToolCall) (port.ToolResult, error) {
			s := statuses[n]
			n++
			return ok("project_validate", &port.Effects{Validations: []port.ValidationEntry{{ID: "unit", Detail: "unit test src/a.test.ts " + s, Scope: "workspace", Status: s}}}), nil
		})
		r := e.start(baseRequest("run-validations"))
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
		Expect(r.Validation).To(HaveLen(2))
		Expect(string(r.Validation[1].Status)).To(Equal("passed"))
	})

	It("drops generated-path writes from evidence but still moves to executing", func() {
		e := scripted(calls(call("workspace_list", "l")), calls(call("workspace_write", "w")), text("Only build output changed."))
		e.verifier = newVerifier()
		e.exec.set("workspace_write", func(port.ToolCall) (port.ToolResult, error) {
			return ok("workspace_write", &port.Effects{Writes: []port.Write{{Path: "dist/app.js", BeforeHash: sp("a"), AfterHash: sp("b")}}}), nil
		})
		r := e.start(baseRequest("run-generated"))
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
		Expect(r.Writes).To(BeEmpty())
		Expect(transitions(r)).To(ContainElement("inspecting->executing"))
	})

	It("keeps a null afterHash for deletes and shows them in active files", func() {
		v := newVerifier()
		e := scripted(calls(call("workspace_list", "l")), calls(call("workspace_write", "w")), text("never"), text("never"), text("never"))
		e.verifier = v
		e.exec.set("workspace_write", func(port.ToolCall) (port.ToolResult, error) {
			return ok("workspace_write", &port.Effects{Writes: []port.Write{{Path: "src/old.ts", BeforeHash: sp("a"), BeforeKind: "file", AfterKind: "missing"}}}), nil
		})
		r := e.start(baseRequest("run-delete"))
		Expect(r.Writes).To(HaveLen(1))
		Expect(r.Writes[0].AfterHash).To(BeNil())
		Expect(v.captures[len(v.captures)-1]).To(ContainElement(port.ActiveFile{Path: "src/old.ts", Kind: "missing"}))
	})

	It("classifies a git.exec diff review as a diff observation in the trace", func() {
		tr := store.NewTrace()
		e := scripted(calls(call("workspace_list", "l")), calls(call("git_operation", "g")), text("Reviewed."))
		e.trace, e.verifier = tr, newVerifier()
		e.exec.tools = append(e.exec.tools, testTool{name: "git_operation", canonical: "git.exec", caps: []string{"approval", "diff_review", "inspect"},
			handle: func(port.ToolCall) (port.ToolResult, error) {
				return ok("git.exec", &port.Effects{DiffReview: &port.DiffReview{DiffHash: "sha256:d"}}), nil
			}})
		r := e.start(baseRequest("run-git"))
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
		var kinds []string
		for _, ev := range tr.Events() {
			if ev.Kind == port.TraceToolResult {
				kinds = append(kinds, decodeJSON(ev.Payload)["observationKind"].(string))
			}
		}
		Expect(kinds).To(Equal([]string{"tool", "diff"}))
	})

	It("applies criteria, plan and next action and emits a plan event", func() {
		e := scripted(calls(call("workspace_list", "l")), calls(call("update_checkpoint", "p")), text("Criterion met."))
		e.exec.tools = append(e.exec.tools, testTool{name: "update_checkpoint", canonical: "task_progress", caps: []string{"criterion_satisfy", "plan"},
			handle: func(port.ToolCall) (port.ToolResult, error) {
				return ok("task_progress", &port.Effects{AcceptanceCriteriaSatisfied: []string{"ac-1"}, NextAction: "report",
					Plan: &port.Plan{Completed: []string{"inspect"}, Pending: []string{}, Decisions: []string{"keep it small"}}}), nil
			}})
		req := baseRequest("run-plan-effects")
		req.AcceptanceCriteria = []prompt.Criterion{{ID: "ac-1", Text: "listed"}}
		r := e.start(req)
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
		plans := e.eventsOf(run.EventPlan)
		Expect(plans).To(HaveLen(1))
		Expect(plans[0].ToolCallID).To(Equal("p"))
		Expect(plans[0].Turn).To(Equal(3))
		Expect(strings.Join(plans[0].Plan.Completed, ",")).To(Equal("inspect"))
	})
})
