package run_test

import (
	"context"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/prompt"
	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/core/run/runtest"
	"github.com/galaxy-stack/conform/doubles/model"
	"github.com/galaxy-stack/conform/doubles/store"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// readEnv is a run whose only tool is read_file.
func readEnv(rounds ...model.Round) *env {
	e := scripted(rounds...)
	e.exec = newExec(readTool())
	return e
}

func withBudget(req run.Request, b run.BudgetInput) run.Request {
	req.Budget = &b
	return req
}

var _ = Describe("no-progress guards through the controller (RUNTIME §17, §18)", func() {
	Describe("write-hash cycles (§18.5)", func() {
		It("pauses A→B, B→A, A→B, A→B and the failing calls after 6 executor calls with 4 writes", func() {
			// This settles the open question of core/guard/testdata/coverage.md:
			// after the 4th write resets the episodes, the 5th and 6th calls fail
			// (failed family counts 1 and 2) and the identical-repeat guard
			// blocks the 7th and 8th before dispatch (episodes 1 and 2 with the
			// recovery round already used) — 6 executor calls, as RUNTIME §36.
			rounds := append(repeatRounds(11, "workspace_write", "cycle", map[string]any{"path": "src/a.ts"}), text("unused"))
			e := scripted(rounds...)
			e.exec.set("workspace_write", cyclingWrites(abCycle...))
			e.withStore()
			r := e.start(baseRequest("run-write-cycle"))
			Expect(r.Status).To(Equal(run.StatusPaused), r.ErrorMessage)
			Expect(e.exec.names()).To(HaveLen(6), "the recovery round dispatches one extra cycle write before the pause")
			Expect(r.Writes).To(HaveLen(4))
			Expect(r.Checkpoint.Reason).To(BeEquivalentTo("pause"))
			Expect(runtest.ResultCodes(r.Calls)).To(Equal([]string{"ok", "ok", "ok", "ok", "NO_PROGRESS", "NO_PROGRESS", "NO_PROGRESS", "NO_PROGRESS"}))
			Expect(r.Calls[6].Dispatched).To(BeFalse())
			Expect(r.Calls[6].Result.Summary).To(Equal("Repeated tool call blocked by deterministic no-progress policy."))
			Expect(r.Transitions[len(r.Transitions)-1].Reason).To(Equal("Repeated no-progress episodes require user direction."))
		})

		It("pauses after 3 calls with maxNoProgressEpisodes 1", func() {
			rounds := append(repeatRounds(3, "workspace_write", "cycle", map[string]any{"path": "src/a.ts"}), text("Broke the cycle."))
			e := scripted(rounds...)
			e.exec.set("workspace_write", cyclingWrites(abCycle...))
			e.verifier = newVerifier()
			req := baseRequest("run-write-cycle-recovery")
			req.Budget.MaxNoProgressEpisodes = run.N(1)
			r := e.start(req)
			Expect(r.Status).To(Equal(run.StatusPaused), r.ErrorMessage)
			Expect(e.exec.names()).To(HaveLen(3), "each cycling recovery write still counts one episode per round")
		})

		It("rebuilds the cycle history from checkpoint evidence on resume", func() {
			exec := newExec()
			exec.set("workspace_write", cyclingWrites(abCycle...))
			st, v := store.NewRunStore(), newVerifier()
			e := scripted(calls(argCall("workspace_write", "resume-cycle-1", map[string]any{"path": "src/a.ts"})),
				calls(argCall("workspace_write", "resume-cycle-2", map[string]any{"path": "src/a.ts"})), text("never"))
			e.exec, e.store, e.verifier = exec, st, v
			e.onEvent = func(c *run.Controller, ev run.Event) {
				if ev.Type == run.EventToolResult && ev.Call.ToolCallID == "resume-cycle-2" {
					c.Pause(ev.RunID, "persist one detected cycle")
				}
			}
			first := e.start(baseRequest("run-resume-cycle"))
			Expect(first.Status).To(Equal(run.StatusPaused), first.ErrorMessage)
			Expect(first.Checkpoint.NoProgress.Episodes).To(BeEquivalentTo(1), "the B→A write returned to an earlier state")

			rounds := append(repeatRounds(7, "workspace_write", "resume-cycle-r", map[string]any{"path": "src/a.ts"}), text("unused"))
			again := scripted(rounds...)
			again.exec, again.store, again.verifier = exec, st, v
			r := again.resume(baseRequest("run-resume-cycle"))
			Expect(r.Status).To(Equal(run.StatusPaused), r.ErrorMessage)
			Expect(exec.names()).To(HaveLen(6), "the resumed recovery round dispatches one extra cycle write before the pause")
			Expect(r.Writes).To(HaveLen(4))
		})
	})

	It("pauses seven failing stale edits with different fragments on one path after 5 calls (§18.3 failed mutation family)", func() {
		var rounds []model.Round
		for i := range 7 {
			rounds = append(rounds, calls(argCall("workspace_write", "stale-"+itoa(i), map[string]any{
				"path": "src/a.ts", "oldText": "stale-fragment-" + itoa(i), "newText": "replacement-" + itoa(i)})))
		}
		e := scripted(rounds...)
		e.exec.set("workspace_write", func(port.ToolCall) (port.ToolResult, error) {
			return failed("workspace_write", "CONFLICT"), nil
		})
		r := e.start(baseRequest("run-stale-family"))
		Expect(r.Status).To(Equal(run.StatusPaused), r.ErrorMessage)
		Expect(e.exec.names()).To(HaveLen(5))
		Expect(r.Writes).To(BeEmpty())
	})

	It("falls back to the state version when the failed-mutation capture fails (DECISIONS 5)", func() {
		var rounds []model.Round
		for i := range 7 {
			rounds = append(rounds, calls(argCall("workspace_write", "stale-"+itoa(i), map[string]any{"path": "src/a.ts", "oldText": itoa(i)})))
		}
		e := scripted(rounds...)
		e.verifier = &flakyVerifier{testVerifier: newVerifier(), failFirst: 5}
		e.exec.set("workspace_write", func(port.ToolCall) (port.ToolResult, error) {
			return failed("workspace_write", "CONFLICT"), nil
		})
		r := e.start(baseRequest("run-stale-capture"))
		Expect(r.Status).To(Equal(run.StatusPaused), r.ErrorMessage)
		Expect(e.exec.names()).To(HaveLen(5))
	})

	Describe("observation guards (§18.2)", func() {
		It("dispatches interleaved reads a,b,c,a,b,c,a under the advisory policy and completes", func() {
			var rounds []model.Round
			for i, p := range []string{"src/a.ts", "src/b.ts", "src/c.ts", "src/a.ts", "src/b.ts", "src/c.ts", "src/a.ts"} {
				rounds = append(rounds, calls(argCall("read_file", "nudge-"+itoa(i), map[string]any{"path": p})))
			}
			e := readEnv(append(rounds, text("Finished after the advisory nudges without pausing."))...)
			r := e.start(withBudget(baseRequest("run-interleaved"), run.BudgetInput{MaxCompletionRejections: run.N(3), MaxModelRetries: run.N(0),
				MaxNoProgressEpisodes: run.N(1), MaxToolCalls: run.N(20), MaxTurns: run.N(16)}))
			Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
			Expect(e.exec.names()).To(HaveLen(7))
		})

		It("nudges at 3, 5 and 8 and blocks the 9th identical read under the default thresholds", func() {
			tr := store.NewTrace()
			e := readEnv(append(repeatRounds(9, "read_file", "advisory", map[string]any{"path": "src/a.ts"}),
				text("Used the retained evidence and finalized after the bounded block."))...)
			e.trace = tr
			r := e.complete(baseRequest("run-advisory-thresholds"))
			Expect(e.exec.names()).To(HaveLen(8))
			Expect(runtest.ResultCodes(r.Calls)[8]).To(Equal("NO_PROGRESS"))
			Expect(r.Calls[8].Result.Summary).To(Equal("Repeated observation blocked after advisory nudges."))
			Expect(policyDecisions(tr)).To(Equal([]string{"observation_nudge@3", "observation_nudge@5", "observation_nudge@8", "observation_blocked@9"}))
			var full map[string]any
			for _, ev := range tr.Events() {
				if ev.Kind == port.TracePolicyDecision {
					full = decodeJSON(ev.Payload)
					break
				}
			}
			Expect(full).To(Equal(map[string]any{"action": "observation_nudge", "attempt": 3.0, "canonicalToolId": "workspace.read",
				"policy": "advisory", "thresholds": []any{3.0, 5.0, 8.0}, "toolCallId": "advisory-2"}))
		})

		It("takes the configured advisory thresholds", func() {
			tr := store.NewTrace()
			e := readEnv(append(repeatRounds(5, "read_file", "t", map[string]any{"path": "src/a.ts"}), text("Done."))...)
			e.trace = tr
			req := baseRequest("run-thresholds")
			req.Budget.ObservationNudgeThresholds = []float64{4, 2}
			e.complete(req)
			Expect(policyDecisions(tr)).To(Equal([]string{"observation_nudge@2", "observation_nudge@4", "observation_blocked@5"}))
			Expect(e.exec.names()).To(HaveLen(4))
		})

		It("dispatches four identical reads under strict with raised limits (4/4/3)", func() {
			e := readEnv(append(repeatRounds(4, "read_file", "repeat", map[string]any{"path": "src/a.ts"}),
				text("Stopped repeated inspection with the retained evidence."))...)
			r := e.start(withBudget(baseRequest("run-raised"), run.BudgetInput{MaxCompletionRejections: run.N(3), MaxNoProgressEpisodes: run.N(3),
				MaxObservationRepeats: run.N(4), MaxRepeatedToolRequests: run.N(4), MaxModelRetries: run.N(0), MaxToolCalls: run.N(20),
				MaxTurns: run.N(12), NoProgressPolicy: "strict"}))
			Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
			Expect(e.exec.names()).To(HaveLen(4))
		})

		strictOne := run.BudgetInput{MaxCompletionRejections: run.N(3), MaxNoProgressEpisodes: run.N(1), MaxObservationRepeats: run.N(2),
			MaxRepeatedToolRequests: run.N(2), MaxModelRetries: run.N(0), MaxToolCalls: run.N(20), MaxTurns: run.N(12), NoProgressPolicy: "strict"}

		It("pauses strict reads with maxNoProgressEpisodes 1 after 3 dispatches", func() {
			e := readEnv(append(repeatRounds(15, "read_file", "r", map[string]any{"path": "src/a.ts"}), text("unused"))...)
			r := e.start(withBudget(baseRequest("run-strict-pause"), strictOne))
			Expect(r.Status).To(Equal(run.StatusPaused), r.ErrorMessage)
			Expect(e.exec.names()).To(HaveLen(3), "the nudged third read dispatches; the recovery turn then pauses")
		})

		It("completes when the recovery round answers with a final report", func() {
			e := readEnv(append(repeatRounds(3, "read_file", "r", map[string]any{"path": "src/a.ts"}), text("Finished with the retained evidence."))...)
			e.complete(withBudget(baseRequest("run-strict-recovery"), strictOne))
			Expect(e.exec.names()).To(HaveLen(3))
		})

		It("counts two blocked observations in one round as one episode (§18.6)", func() {
			round := func(p, id string) model.Round { return calls(argCall("read_file", id, map[string]any{"path": p})) }
			e := readEnv(round("package.json", "a1"), round("test.mjs", "b1"), round("package.json", "a2"), round("test.mjs", "b2"),
				calls(argCall("read_file", "a3", map[string]any{"path": "package.json"}), argCall("read_file", "b3", map[string]any{"path": "test.mjs"})),
				text("Used the retained workspace evidence."))
			r := e.start(withBudget(baseRequest("run-same-round"), run.BudgetInput{MaxCompletionRejections: run.N(3), MaxModelRetries: run.N(0),
				MaxToolCalls: run.N(20), MaxTurns: run.N(12), NoProgressPolicy: "strict"}))
			Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
			Expect(transitions(r)).To(Equal([]string{"created->preparing", "preparing->inspecting", "inspecting->reviewing", "reviewing->completed"}))
			Expect(e.exec.names()).To(HaveLen(5), "the nudged a3 dispatches; b3 is blocked by the cycle guard")
		})
	})

	It("pauses six failing validations of one id and fingerprint after 5 calls (§18.5)", func() {
		var rounds []model.Round
		for i := range 6 {
			rounds = append(rounds, calls(argCall("project_validate", "v-"+itoa(i), map[string]any{"attempt": float64(i)})))
		}
		e := scripted(rounds...)
		e.verifier = newVerifier()
		e.exec.set("project_validate", func(port.ToolCall) (port.ToolResult, error) {
			return ok("project_validate", &port.Effects{Validations: []port.ValidationEntry{{ID: "unit", Detail: "unit test src/a.test.ts failed",
				Scope: "workspace", Status: "failed"}}}), nil
		})
		r := e.start(baseRequest("run-validation-loop"))
		Expect(r.Status).To(Equal(run.StatusPaused), r.ErrorMessage)
		Expect(e.exec.names()).To(HaveLen(5))
		Expect(r.Validation).To(HaveLen(1))
		Expect(r.Checkpoint.OpenProblems).To(Equal([]string{"unit test src/a.test.ts failed"}))
	})

	Describe("tool cycles (§18.3)", func() {
		probe := func(name string) testTool {
			return testTool{name: name, canonical: "probe." + name, caps: []string{"inspect"}, handle: func(port.ToolCall) (port.ToolResult, error) {
				return ok("probe."+name, nil), nil
			}}
		}
		alternating := func(n int) []model.Round {
			var out []model.Round
			for i := range n {
				name := "probe_a"
				if i%2 == 1 {
					name = "probe_b"
				}
				out = append(out, calls(argCall(name, "p-"+itoa(i), map[string]any{})))
			}
			return out
		}
		unsatisfiable := func(runID string) run.Request {
			req := baseRequest(runID)
			req.AcceptanceCriteria = []prompt.Criterion{{ID: "criterion-1", Text: "never satisfied"}}
			return req
		}

		It("pauses alternating successful probes after 3 dispatches with episodes ≥ 2", func() {
			e := scripted(append(alternating(11), text("unused"))...)
			e.exec = newExec(probe("probe_a"), probe("probe_b"))
			r := e.start(unsatisfiable("run-alternating"))
			Expect(r.Status).To(Equal(run.StatusPaused), r.ErrorMessage)
			Expect(e.exec.names()).To(Equal([]string{"probe_a", "probe_b", "probe_a"}))
			Expect(r.Checkpoint.NoProgress.Episodes).To(BeNumerically(">=", 2))
		})

		It("keeps the incomplete cycle across a pause: a resume with B blocks B", func() {
			st, v := store.NewRunStore(), newVerifier()
			e := scripted(append(alternating(3), text("never"))...)
			e.exec, e.store, e.verifier = newExec(probe("probe_a"), probe("probe_b")), st, v
			first := e.pausedAfter("p-2", unsatisfiable("run-cycle-resume"))
			Expect(first.Checkpoint.NoProgress.ToolCycleSuffix).NotTo(BeEmpty())

			again := scripted(calls(argCall("probe_b", "p-3", map[string]any{})), text("unused"))
			again.exec, again.store, again.verifier = newExec(probe("probe_a"), probe("probe_b")), st, v
			r := again.resume(unsatisfiable("run-cycle-resume"))
			Expect(runtest.ResultCodes(r.Calls)).To(Equal([]string{"NO_PROGRESS"}))
			Expect(again.exec.names()).To(BeEmpty())
			Expect(r.Status).To(Equal(run.StatusFailed))
		})
	})

	It("does not let repeated criterion marks, validations and diffs manufacture progress (§17 step 6)", func() {
		e := scripted(
			calls(argCall("workspace_list", "l", map[string]any{})),
			calls(argCall("workspace_write", "w", map[string]any{"path": "src/a.ts"})),
			calls(argCall("mark", "m1", map[string]any{})),
			calls(argCall("project_validate", "v1", map[string]any{"n": 1.0})),
			calls(argCall("project_validate", "v2", map[string]any{"n": 2.0})),
			calls(argCall("git_diff", "d1", map[string]any{"n": 1.0})),
			calls(argCall("git_diff", "d2", map[string]any{"n": 2.0})),
			text("unused"))
		e.exec.tools = append(e.exec.tools, testTool{name: "mark", canonical: "task.mark", caps: []string{"criterion_satisfy"}, handle: func(port.ToolCall) (port.ToolResult, error) {
			return ok("task.mark", &port.Effects{AcceptanceCriteriaSatisfied: []string{"criterion-1"}}), nil
		}})
		e.verifier = newVerifier()
		req := baseRequest("run-no-manufactured-progress")
		req.AcceptanceCriteria = []prompt.Criterion{{ID: "criterion-1", Text: "marked"}, {ID: "criterion-2", Text: "never"}}
		req.Budget.MaxTurns = run.N(7)
		r := e.start(req)
		Expect(r.Status).To(Equal(run.StatusFailed))
		Expect(r.ErrorCode).To(Equal(run.CodeMaxTurns), r.ErrorMessage)
		Expect(r.Validation).To(HaveLen(1), "an identical validation replaces its record")
		Expect(r.ErrorMessage).To(Equal("AI Coder reached maxTurns=8."), "the budget finalization turn raised the limit (§19.4)")
	})

	It("records the no-progress counters in every checkpoint and restores them on resume (§21)", func() {
		st, v := store.NewRunStore(), newVerifier()
		e := readEnv(append(repeatRounds(3, "read_file", "r", map[string]any{"path": "src/a.ts"}), text("never"))...)
		e.store, e.verifier, e.onEvent = st, v, pauseAfter("r-2")
		req := withBudget(baseRequest("run-counters"), run.BudgetInput{MaxTurns: run.N(12), NoProgressPolicy: "strict"})
		req.AcceptanceCriteria = []prompt.Criterion{{ID: "open", Text: "keeps the evidence from being ready"}}
		first := e.start(req)
		Expect(first.Status).To(Equal(run.StatusPaused))
		np := first.Checkpoint.NoProgress
		Expect(np.Policy).To(BeEquivalentTo("strict"))
		Expect(np.ObservationNudgeThresholds).To(Equal([]int64{3, 5, 8}))
		Expect(np.Episodes).To(BeEquivalentTo(1), "the strict nudge of the 3rd read")
		Expect(np.ObservationFamilies).To(HaveLen(1))
		Expect(np.ObservationFamilies[0].Count).To(BeEquivalentTo(3))

		again := readEnv(calls(argCall("read_file", "r-3", map[string]any{"path": "src/a.ts"})), text("never"))
		again.store, again.verifier, again.onEvent = st, v, pauseAfter("r-3")
		r := again.resume(req)
		Expect(r.Status).To(Equal(run.StatusPaused), r.ErrorMessage)
		// The identical-repeat count survived the pause: the 4th identical
		// read is the 3rd on the restored state, so it is blocked.
		Expect(first.Checkpoint.NoProgress.PreviousTool.Repetitions).To(BeEquivalentTo(2))
		Expect(runtest.ResultCodes(r.Calls)).To(Equal([]string{"NO_PROGRESS"}))
		Expect(again.exec.names()).To(BeEmpty())
		np = r.Checkpoint.NoProgress
		Expect(np.ObservationFamilies[0].Count).To(BeEquivalentTo(3), "a blocked read is not counted in its family")
		Expect(np.Episodes).To(BeEquivalentTo(2), "the restored episode plus one for the turn of the nudge and the block")
		Expect(requestText(again.model.(*model.Scripted).Requests()[0])).To(ContainSubstring("[GALAXY VERIFIED TASK CHECKPOINT"))
	})

	It("refuses to resume with other no-progress thresholds (§21.4)", func() {
		st, v := store.NewRunStore(), newVerifier()
		pausedRun(st, v, "run-thresholds-compat")
		again := scripted(text("never"))
		again.store, again.verifier = st, v
		req := baseRequest("run-thresholds-compat")
		req.Budget.ObservationNudgeThresholds = []float64{5}
		r := again.resume(req)
		Expect(r.ErrorCode).To(Equal(run.CodeCheckpointIncompatible))
		Expect(r.ErrorMessage).To(ContainSubstring("observationNudgeThresholds"))
	})
})

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}

// flakyVerifier fails its first failFirst captures.
type flakyVerifier struct {
	*testVerifier
	failFirst int
	n         int
}

func (v *flakyVerifier) Capture(ctx context.Context, in run.WorkspaceInput) (port.WorkspaceState, error) {
	v.n++
	if v.n <= v.failFirst {
		return port.WorkspaceState{}, &port.Error{Code: port.CodeIOError, Message: "capture failed"}
	}
	return v.testVerifier.Capture(ctx, in)
}
