package run_test

import (
	"context"
	"sync"
	"time"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/prompt"
	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/doubles/clock"
	"github.com/galaxy-stack/conform/doubles/model"
	"github.com/galaxy-stack/conform/doubles/store"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// evidenceRounds inspect, write, validate and review the diff: after them
// the evidence is ready for the final report.
func evidenceRounds() []model.Round {
	return []model.Round{
		calls(argCall("workspace_list", "inspect", map[string]any{})),
		calls(argCall("workspace_write", "write", map[string]any{"path": "src/a.ts"})),
		calls(argCall("project_validate", "validate", map[string]any{})),
		calls(argCall("git_diff", "diff", map[string]any{})),
	}
}

var _ = Describe("finalization through the controller (RUNTIME §19)", func() {
	It("enters the tool-free turn once the evidence is ready, ignores its tool calls without dispatch and completes", func() {
		rounds := append(evidenceRounds(), calls(argCall("workspace_list", "late", map[string]any{})), text("Verified: src/a.ts changed, unit tests pass, diff reviewed."))
		m := model.NewScripted(rounds)
		e := newEnv(m)
		e.verifier = newVerifier()
		r := e.complete(baseRequest("run-finalization"))
		Expect(e.exec.names()).To(Equal([]string{"workspace_list", "workspace_write", "project_validate", "git_diff"}), "the late call is not dispatched")
		Expect(r.Calls).To(HaveLen(4), "the ignored call is not counted")
		rejected := e.eventsOf(run.EventCompletionRejected)
		Expect(rejected).To(HaveLen(1))
		Expect(rejected[0].Issues).To(Equal([]string{"FINALIZATION_TOOL_CALLS_IGNORED: Model requested 1 tool call(s) during a tool-free finalization turn; none were dispatched."}))
		reqs := m.Requests()
		Expect(toolFree(reqs)).To(Equal([]bool{false, false, false, false, true, true}), "the last two requests have no tools")
		doc := mandatoryDoc(reqs[4])
		Expect(doc["phase"]).To(Equal("finalizing"))
		Expect(doc["nextAction"]).To(Equal("Return the user-facing final report without requesting tools or further work."))
		Expect(requestText(reqs[4])).To(ContainSubstring("[GALAXY FINALIZATION MODE - trusted runtime state]"))
		Expect(requestText(reqs[5])).To(ContainSubstring("[GALAXY FINALIZATION RETRY - trusted runtime state]"))
		Expect(requestText(reqs[5])).NotTo(ContainSubstring(`"late"`), "the assistant message of the ignored turn stays out of the context")
	})

	It("fails INVALID_MODEL_STREAM when tool calls in finalization reach maxCompletionRejections", func() {
		rounds := append(evidenceRounds(), calls(argCall("workspace_list", "late-1", map[string]any{})), calls(argCall("workspace_list", "late-2", map[string]any{})))
		e := scripted(rounds...)
		e.verifier = newVerifier()
		req := baseRequest("run-finalization-fatal")
		req.Budget.MaxCompletionRejections = run.N(2)
		r := e.start(req)
		expectEnded(r, run.StatusFailed, run.CodeInvalidModelStream, "Model requested tool calls during tool-free finalization 2 times.")
	})

	It("turns finalization off after a rejected report so tools come back", func() {
		// Readiness ignores citations (§19.2); the gate does not: a report
		// citing an unfetched source is rejected in the tool-free turn.
		rounds := []model.Round{calls(argCall("workspace_list", "l1", map[string]any{})), text("See https://example.invalid/source for details."),
			calls(argCall("workspace_list", "l2", map[string]any{"n": 2.0})), text("Verified without citations.")}
		m := model.NewScripted(rounds)
		e := newEnv(m)
		e.verifier = newVerifier()
		req := baseRequest("run-finalization-leave")
		yes := true
		req.Completion = &prompt.Completion{Research: &prompt.Research{RequireCitations: &yes}}
		e.start(req)
		Expect(toolFree(m.Requests())[:4]).To(Equal([]bool{false, true, false, true}), "configured research makes every batch a finalization check")
		Expect(e.exec.names()).To(Equal([]string{"workspace_list", "workspace_list"}))
		Expect(e.eventsOf(run.EventCompletionRejected)[0].Issues[0]).To(HavePrefix("RESEARCH_CITATION_"))
	})

	Describe("the budget finalization turn (§19.4, DECISIONS 3 and 19)", func() {
		It("grants one tool-free turn after an authored write, then fails MAX_TURNS with the raised limit", func() {
			tr := store.NewTrace()
			m := model.NewScripted([]model.Round{calls(argCall("workspace_write", "w", map[string]any{"path": "src/a.ts"})),
				calls(argCall("workspace_list", "l", map[string]any{})), text("Changed src/a.ts; validation and diff review are missing.")})
			e := newEnv(m)
			e.verifier, e.trace = newVerifier(), tr
			req := baseRequest("run-budget-turn")
			req.Budget.MaxTurns = run.N(2)
			r := e.start(req)
			Expect(r.ErrorCode).To(Equal(run.CodeMaxTurns))
			Expect(r.ErrorMessage).To(Equal("AI Coder reached maxTurns=3."))
			Expect(toolFree(m.Requests())).To(Equal([]bool{false, false, true}))
			Expect(policyDecisions(tr)).To(Equal([]string{"budget_finalization_turn maxTurns=3"}))
			Expect(requestText(m.Requests()[2])).To(ContainSubstring("The model turn budget is exhausted; this is the last turn of the run."))
			Expect(e.eventsOf(run.EventCompletionRejected)).To(HaveLen(1))
		})

		It("is not granted without a write, an episode or research", func() {
			m := model.NewScripted([]model.Round{calls(argCall("workspace_list", "l1", map[string]any{"n": 1.0})), calls(argCall("workspace_list", "l2", map[string]any{"n": 2.0}))})
			e := newEnv(m)
			req := baseRequest("run-no-budget-turn")
			req.Budget.MaxTurns = run.N(2)
			r := e.start(req)
			Expect(r.ErrorMessage).To(Equal("AI Coder reached maxTurns=2."))
			Expect(m.RequestCount()).To(Equal(2))
		})
	})

	It("derives the finalization boundary on a verified resume before its first request (§11)", func() {
		st, v := store.NewRunStore(), newVerifier()
		first := model.NewScripted(append(evidenceRounds(), text("never")), model.WithTokenCountSteps(
			model.Count(500), model.Count(500), model.Count(500), model.Count(500), model.Count(90000), model.Count(90000)))
		e := newEnv(first)
		e.store, e.verifier = st, v
		r := e.start(baseRequest("run-exhausted"))
		Expect(r.ErrorCode).To(Equal(run.CodeContextBudget))
		Expect(r.ErrorMessage).To(Equal("Provider token count 90000 remains above hard input 87040 after compaction."))
		Expect(st.CheckpointReasons()).To(Equal([]string{"provider_overflow", "failure"}))

		second := model.NewScripted([]model.Round{text("Resumed: src/a.ts verified, validated and reviewed.")})
		again := newEnv(second)
		again.store, again.verifier = st, v
		r = again.resume(baseRequest("run-exhausted"))
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
		Expect(toolFree(second.Requests())).To(Equal([]bool{true}), "the resumed run starts in the tool-free turn")
		Expect(again.exec.names()).To(BeEmpty(), "the write is not repeated")
		Expect(mandatoryDoc(second.Requests()[0])["phase"]).To(Equal("finalizing"))
	})

	It("skips the post-batch finalization check once the recovery round was used (§18.6)", func() {
		// The stale edits pause the run; with an inspected workspace and no
		// writes the evidence would be ready, but the recovery round keeps
		// the tools on.
		var rounds []model.Round
		rounds = append(rounds, calls(argCall("workspace_list", "l", map[string]any{})))
		for i := range 3 {
			rounds = append(rounds, calls(argCall("workspace_write", "stale-"+itoa(i), map[string]any{"path": "src/a.ts", "oldText": itoa(i)})))
		}
		rounds = append(rounds, text("Done."))
		m := model.NewScripted(rounds)
		e := newEnv(m)
		e.exec.set("workspace_write", func(portCall) (portResult, error) { return failed("workspace_write", "CONFLICT"), nil })
		req := baseRequest("run-recovery-no-finalize")
		req.Budget.MaxNoProgressEpisodes = run.N(1)
		e.complete(req)
		Expect(toolFree(m.Requests())).To(Equal([]bool{false, false, false, false, false}))
	})
})

// guardPausedRun is a write cycle that the no-progress guard pauses after
// the batch of its third call (maxNoProgressEpisodes 1); control is called
// at that call's result, before the guard's pause.
func guardPausedRun(runID string, control func(c *run.Controller, runID string)) run.Result {
	rounds := append(repeatRounds(3, "workspace_write", "cycle", map[string]any{"path": "src/a.ts"}), text("Broke the cycle."))
	e := scripted(rounds...)
	e.exec.set("workspace_write", cyclingWrites(abCycle...))
	e.verifier = newVerifier()
	e.timers = &recordingTimers{}
	e.onEvent = func(c *run.Controller, ev run.Event) {
		if control != nil && ev.Type == run.EventToolResult && ev.Call.ToolCallID == "cycle-2" {
			control(c, ev.RunID)
		}
	}
	req := baseRequest(runID)
	req.Budget.MaxNoProgressEpisodes = run.N(1)
	return e.start(req)
}

// trippingClock is the fake clock that panics on one read: the n-th read
// after arm(n). A panicking clock port stands in for any port fault while
// the run finishes.
type trippingClock struct {
	*clock.Fake
	mu        sync.Mutex
	countdown int
}

func (c *trippingClock) arm(n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.countdown = n
}

func (c *trippingClock) Now() int64 {
	c.mu.Lock()
	trip := false
	if c.countdown > 0 {
		c.countdown--
		trip = c.countdown == 0
	}
	c.mu.Unlock()
	if trip {
		panic("clock port failed")
	}
	return c.Fake.Now()
}

// armingSleeper fails every sleep, without aborting the run signal, after
// arming the clock to trip on its third read from then: the control check
// that follows, the timestamp of the cancelled transition, then the trace
// event of that transition.
type armingSleeper struct{ clock *trippingClock }

func (s armingSleeper) Sleep(context.Context, time.Duration) error {
	s.clock.arm(3)
	return failingSleeper{}.Sleep(context.Background(), 0)
}

func lastReason(r run.Result) string { return r.Transitions[len(r.Transitions)-1].Reason }

var _ = Describe("finishing a run at its edges (RUNTIME §22.3)", func() {
	It("pauses with the guard's reason when no caller asked for control", func() {
		r := guardPausedRun("run-guard-pause", nil)
		Expect(r.Status).To(Equal(run.StatusPaused), r.ErrorMessage)
		Expect(lastReason(r)).To(Equal("Repeated no-progress episodes require user direction."))
	})

	It("pauses with the caller's reason when the caller paused before the guard did", func() {
		r := guardPausedRun("run-caller-pause", func(c *run.Controller, id string) { c.Pause(id, "caller pause at the last result") })
		Expect(r.Status).To(Equal(run.StatusPaused), r.ErrorMessage)
		Expect(r.Transitions[len(r.Transitions)-1].To).To(Equal(run.StatePaused))
		Expect(lastReason(r)).To(Equal("caller pause at the last result"))
	})

	It("cancels with the caller's reason when the caller cancelled before the guard paused", func() {
		r := guardPausedRun("run-caller-cancel", func(c *run.Controller, id string) { c.Cancel(id, "caller cancel at the last result") })
		Expect(r.Status).To(Equal(run.StatusCancelled), r.ErrorMessage)
		Expect(r.Transitions[len(r.Transitions)-1].To).To(Equal(run.StateCancelled))
		Expect(lastReason(r)).To(Equal("caller cancel at the last result"))
	})

	It("forces the failed state with the next sequence number when a port fails after the cancelled transition (DECISIONS 13)", func() {
		m := newFnModel(retryable("slow down"), []port.RoundEvent{started(), doneText("never")})
		e := newEnv(m)
		e.timers = &recordingTimers{}
		tr := store.NewTrace()
		e.trace = tr
		c := &trippingClock{Fake: e.clock}
		d := e.deps()
		d.Clock, d.Sleeper = c, armingSleeper{c}
		h, err := run.New(d).Start(withRetries(noGateRequest("run-forced-failed"), 2, 10))
		Expect(err).NotTo(HaveOccurred())
		r := wait(h)
		Expect(r.Status).To(Equal(run.StatusFailed))
		Expect(r.ErrorCode).To(Equal(run.CodeProviderError))
		Expect(r.ErrorMessage).To(ContainSubstring("clock port failed"))
		Expect(transitions(r)).To(Equal([]string{"created->preparing", "preparing->inspecting", "inspecting->cancelled", "cancelled->failed"}))
		for i, t := range r.Transitions {
			Expect(t.Sequence).To(Equal(i+1), "transition %d", i+1)
		}
	})
})

var _ = Describe("state transitions at their edges (RUNTIME §9)", func() {
	It("numbers the transitions of a segment from 1, one by one", func() {
		r := newEnv(inspectThenReport()).start(baseRequest("run-transition-sequence"))
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
		Expect(transitions(r)).To(Equal([]string{"created->preparing", "preparing->inspecting", "inspecting->reviewing", "reviewing->completed"}))
		for i, t := range r.Transitions {
			Expect(t.Sequence).To(Equal(i+1), "transition %d", i+1)
		}
	})
})

var _ = Describe("the state machine (RUNTIME §9)", func() {
	operational := []string{run.StateInspecting, run.StatePlanning, run.StateExecuting, run.StateValidating, run.StateReviewing}
	It("allows every operational to operational transition", func() {
		for _, from := range operational {
			for _, to := range operational {
				if from != to {
					Expect(run.CanTransition(from, to)).To(BeTrue(), "%s -> %s", from, to)
				}
			}
		}
	})
	It("closes terminal states", func() {
		for _, from := range []string{run.StateCompleted, run.StateFailed, run.StateCancelled, run.StatePaused} {
			Expect(run.IsTerminal(from)).To(BeTrue())
			for _, to := range run.States() {
				Expect(run.CanTransition(from, to)).To(BeFalse(), "%s -> %s", from, to)
			}
		}
	})
	It("reaches completed only from reviewing", func() {
		for _, from := range run.States() {
			Expect(run.CanTransition(from, run.StateCompleted)).To(Equal(from == run.StateReviewing), from)
		}
	})
	DescribeTable("the irregular edges",
		func(from, to string, allowed bool) { Expect(run.CanTransition(from, to)).To(Equal(allowed)) },
		Entry(nil, run.StateCreated, run.StatePreparing, true),
		Entry(nil, run.StateCreated, run.StateInspecting, false),
		Entry(nil, run.StatePreparing, run.StateValidating, false),
		Entry(nil, run.StatePreparing, run.StateWaitingApproval, false),
		Entry(nil, run.StateResuming, run.StateWaitingApproval, false),
		Entry(nil, run.StateResuming, run.StateCompacting, false),
		Entry(nil, run.StateResuming, run.StateValidating, true),
		Entry(nil, run.StateCompacting, run.StatePreparing, true),
		Entry(nil, run.StateWaitingApproval, run.StateWaitingApproval, false),
		Entry(nil, run.StateWaitingApproval, run.StateCompacting, true),
	)
})

var _ = Describe("generated workspace paths (RUNTIME §30)", func() {
	DescribeTable("IsGeneratedPath",
		func(segments []string, want bool) { Expect(run.IsGeneratedPath(segments)).To(Equal(want)) },
		Entry(nil, []string{"node_modules", "x", "index.js"}, true),
		Entry(nil, []string{"src", "dist", "a.js"}, true),
		Entry(nil, []string{"service.log"}, true),
		Entry(nil, []string{"a", ".DS_Store"}, true),
		Entry(nil, []string{"tsconfig.tsbuildinfo"}, true),
		Entry(nil, []string{"src", "main.ts"}, false),
		Entry(nil, []string{"distribution", "a.js"}, false),
	)
	It("counts only the leaf for churning paths", func() {
		Expect(run.IsChurningPath([]string{"logs", "app.log"})).To(BeTrue())
		Expect(run.IsChurningPath([]string{"app.log", "x.txt"})).To(BeFalse())
		Expect(run.IsChurningFileName("tsconfig.tsbuildinfo")).To(BeFalse())
	})
})
