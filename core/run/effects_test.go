package run_test

import (
	"fmt"
	"strings"
	"sync"

	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/prompt"
	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/doubles/model"
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
		r := e.complete(baseRequest("run-write"))
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
		r := e.complete(baseRequest("run-validations"))
		Expect(r.Validation).To(HaveLen(2))
		Expect(string(r.Validation[1].Status)).To(Equal("passed"))
	})

	It("drops generated-path writes from evidence but still moves to executing", func() {
		e := scripted(calls(call("workspace_list", "l")), calls(call("workspace_write", "w")), text("Only build output changed."))
		e.verifier = newVerifier()
		e.exec.set("workspace_write", func(port.ToolCall) (port.ToolResult, error) {
			return ok("workspace_write", &port.Effects{Writes: []port.Write{{Path: "dist/app.js", BeforeHash: sp("a"), AfterHash: sp("b")}}}), nil
		})
		r := e.complete(baseRequest("run-generated"))
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
		e.complete(baseRequest("run-git"))
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
		e.complete(req)
		plans := e.eventsOf(run.EventPlan)
		Expect(plans).To(HaveLen(1))
		Expect(plans[0].ToolCallID).To(Equal("p"))
		Expect(plans[0].Turn).To(Equal(3))
		Expect(strings.Join(plans[0].Plan.Completed, ",")).To(Equal("inspect"))
	})
})

// validatedTwice runs a write and then two project_validate calls of
// validation unit, answered with the first and second status and detail,
// and returns the run paused after the second.
func validatedTwice(id string, first, second [2]string) run.Result {
	GinkgoHelper()
	e := scripted(calls(call("workspace_write", "w")), calls(argCall("project_validate", "v1", map[string]any{"try": 1.0})),
		calls(argCall("project_validate", "v2", map[string]any{"try": 2.0})), text("never"))
	e.withStore()
	e.exec.set("project_validate", validationSteps(first, second))
	return e.pausedAfter("v2", baseRequest(id))
}

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
		r := validatedTwice("run-validation-supersede", [2]string{"failed", "unit tests fail"}, [2]string{"passed", "unit tests pass"})
		Expect(r.Checkpoint.OpenProblems).To(BeEmpty())
		Expect(r.Checkpoint.Validation).To(HaveLen(2))
	})

	It("replaces a repeated failure of a validation in place and keeps only its latest detail open", func() {
		r := validatedTwice("run-validation-refail", [2]string{"failed", "3 unit tests fail"}, [2]string{"failed", "2 unit tests fail"})
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
		e.withStore()
		r := e.pausedAfter("l", baseRequest("run-argument-digest"))
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

// validationsByCall answers project_validate with the validation scripted
// for each call ID.
func validationsByCall(byID map[string]port.ValidationEntry) func(port.ToolCall) (port.ToolResult, error) {
	return func(c port.ToolCall) (port.ToolResult, error) {
		return ok("project_validate", &port.Effects{Validations: []port.ValidationEntry{byID[c.ToolCallID]}}), nil
	}
}

// failedWriteRun runs three failed writes of src/a.ts, each with other
// content; moveState, when set,
// changes the workspace fingerprint before each failure. It returns the
// model's requests.
func failedWriteRun(runID string, moveState bool) []port.RoundRequest {
	var rounds []model.Round
	for i := range 3 {
		rounds = append(rounds, calls(argCall("workspace_write", "w-"+itoa(i), map[string]any{"path": "src/a.ts", "content": "attempt " + itoa(i)})))
	}
	m := model.NewScripted(append(rounds, text("Stopped after the failed writes.")))
	e := newEnv(m)
	v := newVerifier()
	e.verifier = v
	var mu sync.Mutex
	n := 0
	e.exec.set("workspace_write", func(port.ToolCall) (port.ToolResult, error) {
		if moveState {
			mu.Lock()
			n++
			i := n
			mu.Unlock()
			v.mu.Lock()
			v.fingerprint = "sha256:workspace-state-" + itoa(i)
			v.mu.Unlock()
		}
		return failed("workspace_write", "STALE_HASH"), nil
	})
	e.start(baseRequest(runID))
	return m.Requests()
}

var _ = Describe("run evidence at its edges (RUNTIME §16–§18)", func() {
	It("clears only the open problem a passing validation supersedes, keeping the others", func() {
		e := scripted(calls(call("project_validate", "v1")), calls(call("project_validate", "v2")),
			calls(call("project_validate", "v3")), text("never"))
		e.onEvent = pauseAfter("v3")
		e.verifier = newVerifier()
		e.exec.set("project_validate", validationsByCall(map[string]port.ValidationEntry{
			"v1": {ID: "unit", Detail: "unit tests fail", Scope: "workspace", Status: "failed"},
			"v2": {ID: "lint", Detail: "lint fails", Scope: "workspace", Status: "failed"},
			"v3": {ID: "unit", Detail: "unit tests pass", Scope: "workspace", Status: "passed"},
		}))
		r := e.start(baseRequest("run-open-problems"))
		Expect(r.Status).To(Equal(run.StatusPaused), r.ErrorMessage)
		Expect(r.Checkpoint.OpenProblems).To(Equal([]string{"lint fails"}))
	})

	It("counts failed writes of one path per workspace state the verifier captured after each failure (§18.3)", func() {
		const incident = "workspace_write failed 3 times against the same path and workspace state"
		same := failedWriteRun("run-failed-writes-same-state", false)
		Expect(len(same)).To(BeNumerically(">=", 4))
		Expect(requestText(same[3])).To(ContainSubstring(incident))
		moved := failedWriteRun("run-failed-writes-moved-state", true)
		Expect(len(moved)).To(BeNumerically(">=", 4))
		Expect(requestText(moved[3])).NotTo(ContainSubstring(incident))
	})

	It("traces the no-progress recovery turn it grants (§18.6, §26.3)", func() {
		tr := store.NewTrace()
		e := readEnv(append(repeatRounds(3, "read_file", "r", map[string]any{"path": "src/a.ts"}), text("Finished with the retained evidence."))...)
		e.trace = tr
		r := e.start(withBudget(baseRequest("run-recovery-trace"), run.BudgetInput{MaxCompletionRejections: run.N(3), MaxNoProgressEpisodes: run.N(1),
			MaxObservationRepeats: run.N(2), MaxRepeatedToolRequests: run.N(2), MaxModelRetries: run.N(0), MaxToolCalls: run.N(20), MaxTurns: run.N(12),
			NoProgressPolicy: "strict"}))
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
		Expect(policyDecisions(tr)).To(ContainElement("no_progress_recovery_turn"))
	})

	It("keeps the argument digest in canonical JSON, without HTML escapes", func() {
		e := scripted(calls(argCall("workspace_list", "l", map[string]any{"path": "src/a<b>&c.ts"})), text("never"))
		r := e.pausedAfter("l", baseRequest("run-argument-digest"))
		Expect(r.Checkpoint.LastToolCalls[0].ArgumentDigest).To(Equal(`{"path":"src/a<b>&c.ts"}`))
	})

	It("ends a cancelled run with the caller's reason", func() {
		e := scripted(calls(call("workspace_list", "l")), text("never"))
		e.onEvent = func(c *run.Controller, ev run.Event) {
			if ev.Type == run.EventToolResult {
				c.Cancel(ev.RunID, "the caller stopped the spec")
			}
		}
		r := e.start(baseRequest("run-cancel-reason"))
		Expect(r.Status).To(Equal(run.StatusCancelled))
		Expect(r.Transitions[len(r.Transitions)-1].Reason).To(Equal("the caller stopped the spec"))
	})

	It("treats an empty path as neither churning nor generated", func() {
		Expect(run.IsChurningPath(nil)).To(BeFalse())
		Expect(run.IsChurningPath([]string{})).To(BeFalse())
		Expect(run.IsGeneratedPath(nil)).To(BeFalse())
		Expect(run.IsGeneratedPath([]string{})).To(BeFalse())
	})
})

// researchTool is a research.fetch tool that answers each call with the
// sources scripted for its call ID.
func researchTool(sources map[string][]port.ResearchSource) testTool {
	return testTool{name: "research_fetch", canonical: "research.fetch", caps: []string{"approval", "research"},
		handle: func(c port.ToolCall) (port.ToolResult, error) {
			return ok("research.fetch", &port.Effects{ResearchSources: sources[c.ToolCallID]}), nil
		}}
}

func fetched(url, summary string) port.ResearchSource {
	return port.ResearchSource{Kind: "fetch", URL: url, Summary: summary, ContentHash: sp("sha256:" + summary)}
}

func searched(url, summary string) port.ResearchSource {
	return port.ResearchSource{Kind: "search", URL: url, Summary: summary, ContentHash: nil}
}

// researchOnFailure runs e to a NO_PROGRESS failure (its report is
// rejected for a missing validation) and returns the research sources of
// the failure checkpoint the store acknowledged.
func researchOnFailure(e *env, runID string) []checkpoint.ResearchSource {
	st := store.NewRunStore()
	e.store = st
	r := e.rejectedForValidation(baseRequest(runID))
	Expect(r.Checkpoint).NotTo(BeNil())
	Expect(string(r.Checkpoint.Reason)).To(Equal("failure"))
	cps := storedCheckpoints(st)
	Expect(cps[len(cps)-1].ResearchSources).To(Equal(r.Checkpoint.ResearchSources))
	return r.Checkpoint.ResearchSources
}

// sourceKey is a kept source as kind, URL and the call that stamped it.
func sourceKey(s checkpoint.ResearchSource) string {
	return fmt.Sprintf("%s %s %s", s.Kind, s.URL, s.ToolCallID)
}

var _ = Describe("research evidence (RUNTIME §16.6, CONTRACTS §7.7 step 7)", func() {
	It("deduplicates by (kind, URL without fragment), replaces only changed evidence, stamps sequence and call, keeps the last 24", func() {
		var many []port.ResearchSource
		for i := range 22 {
			many = append(many, searched(fmt.Sprintf("https://many.example/%02d", i), fmt.Sprintf("hit %d", i)))
		}
		sources := map[string][]port.ResearchSource{
			"r1": {fetched("https://a.example/doc#intro", "a"), searched("https://a.example/doc", "a listed"), fetched("https://b.example/", "b")},
			// Same keys: a unchanged (other fragment) stays stamped r1; b changed is replaced and stamped r2.
			"r2": {fetched("https://a.example/doc#usage", "a"), fetched("https://b.example/#top", "b, revised")},
			"r3": many,
		}
		e := scripted(calls(call("workspace_list", "l"), model.ToolCall{ToolCallID: "r1", ToolName: "research_fetch", Arguments: map[string]any{}}),
			calls(model.ToolCall{ToolCallID: "r2", ToolName: "research_fetch", Arguments: map[string]any{"again": true}}),
			calls(model.ToolCall{ToolCallID: "r3", ToolName: "research_fetch", Arguments: map[string]any{"many": true}}),
			text("Researched."))
		e.exec.tools = append(e.exec.tools, researchTool(sources))
		kept := researchOnFailure(e, "run-research-merge")
		Expect(kept).To(HaveLen(24))
		var keys []string
		for _, s := range kept {
			keys = append(keys, sourceKey(s))
		}
		want := []string{"search https://a.example/doc r1", "fetch https://b.example/ r2"}
		for i := range 22 {
			want = append(want, fmt.Sprintf("search https://many.example/%02d r3", i))
		}
		Expect(keys).To(Equal(want), "the oldest source (the first fetch of a.example) is dropped at 25")

		Expect(kept[1].Summary).To(Equal("b, revised"))
		seq := map[string]int64{}
		for _, s := range kept {
			if old, seen := seq[s.ToolCallID]; seen {
				Expect(s.Sequence).To(Equal(old), "one sequence per call")
			}
			seq[s.ToolCallID] = s.Sequence
		}
		Expect(seq["r1"]).To(BeNumerically("<", seq["r2"]))
		Expect(seq["r2"]).To(BeNumerically("<", seq["r3"]))
	})

	It("keeps the unchanged record with its first sequence and call when a later call reports it again", func() {
		sources := map[string][]port.ResearchSource{
			"r1": {fetched("https://a.example/doc#intro", "a")},
			"r2": {fetched("https://a.example/doc", "a"), fetched("https://a.example/other", "other")},
		}
		e := scripted(calls(call("workspace_list", "l"), model.ToolCall{ToolCallID: "r1", ToolName: "research_fetch", Arguments: map[string]any{}}),
			calls(model.ToolCall{ToolCallID: "r2", ToolName: "research_fetch", Arguments: map[string]any{"again": true}}),
			text("Researched."))
		e.exec.tools = append(e.exec.tools, researchTool(sources))
		kept := researchOnFailure(e, "run-research-keep")
		Expect(kept).To(HaveLen(2))
		Expect(sourceKey(kept[0])).To(Equal("fetch https://a.example/doc r1"))
		Expect(sourceKey(kept[1])).To(Equal("fetch https://a.example/other r2"))
		Expect(kept[0].Sequence).To(BeNumerically("<", kept[1].Sequence))
	})
})

// reportingVerifier is testVerifier stating a consistency level.
type reportingVerifier struct {
	*testVerifier
	consistency string
}

func (v reportingVerifier) Consistency() string { return v.consistency }

var _ run.ConsistencyReporter = reportingVerifier{}

var _ = Describe("the verifier's consistency (CONTRACTS §13.8)", func() {
	// writeRun writes, validates and reviews the diff with verifier v.
	writeRun := func(v run.Verifier, runID string) run.Result {
		e := scripted(calls(call("workspace_list", "l"), call("workspace_write", "w")), calls(call("project_validate", "v")),
			calls(call("git_diff", "d")), text("Changed src/a.ts, validated and reviewed."))
		e.verifier = v
		return e.start(baseRequest(runID))
	}

	It("applies write evidence with a verifier that reports serialized_workspace", func() {
		r := writeRun(reportingVerifier{newVerifier(), run.ConsistencySerializedWorkspace}, "run-consistent")
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
		Expect(r.Writes).To(HaveLen(1))
	})

	It("takes a verifier that does not report a consistency as serialized_workspace", func() {
		r := writeRun(newVerifier(), "run-unreported")
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
	})

	DescribeTable("treats any other consistency as a missing verifier for write evidence",
		func(consistency string) {
			v := reportingVerifier{newVerifier(), consistency}
			r := writeRun(v, "run-inconsistent")
			Expect(r.ErrorCode).To(Equal(run.CodeToolExecution))
			Expect(r.ErrorMessage).To(ContainSubstring("Workspace-changing or verification evidence requires a host workspace evidence verifier."))
			Expect(r.Writes).To(BeEmpty())
			Expect(v.captures).To(BeEmpty(), "the unusable verifier is never asked")
		},
		Entry("empty", ""),
		Entry("another level", "eventual"),
		Entry("a different case", "Serialized_Workspace"),
	)

	DescribeTable("resumes a fingerprinted checkpoint only with a serialized_workspace verifier",
		func(consistency string, incompatible bool) {
			st := store.NewRunStore()
			Expect(pausedRun(st, newVerifier(), "run-resume-consistency").Status).To(Equal(run.StatusPaused))
			again := scripted(text("Inspected."))
			again.store, again.verifier = st, reportingVerifier{newVerifier(), consistency}
			r := again.resume(baseRequest("run-resume-consistency"))
			if incompatible {
				Expect(r.ErrorCode).To(Equal(run.CodeCheckpointIncompatible))
				Expect(r.ErrorMessage).To(Equal("Checkpoint workspace evidence cannot be resumed without a captured fingerprint and host verifier."))
			} else {
				Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
			}
		},
		Entry("serialized_workspace resumes", run.ConsistencySerializedWorkspace, false),
		Entry("another level is no verifier", "eventual", true),
	)
})
