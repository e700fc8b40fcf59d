package run_test

import (
	"context"
	"sync"
	"time"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/doubles/clock"
	"github.com/galaxy-stack/conform/doubles/store"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

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
