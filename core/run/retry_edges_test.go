package run_test

import (
	"context"
	"errors"
	"time"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/prompt"
	"github.com/galaxy-stack/conform/core/run"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// failingSleeper is a sleeper port that fails every sleep without the run
// signal being aborted.
type failingSleeper struct{}

func (failingSleeper) Sleep(context.Context, time.Duration) error { return errors.New("sleeper down") }

func retryable(msg string) []port.RoundEvent {
	return []port.RoundEvent{started(), providerError("RATE_LIMITED", msg, true, "")}
}

// noGateRequest is baseRequest whose gate needs no inspection, so a single
// text round completes it.
func noGateRequest(runID string) run.Request {
	req := baseRequest(runID)
	req.Completion = &prompt.Completion{RequireInspection: new(bool), RequireValidation: new(bool)}
	return req
}

func retryEvents(e *env) (attempts []int, delays []int64) {
	for _, ev := range e.eventsOf(run.EventModelRetry) {
		attempts, delays = append(attempts, ev.Attempt), append(delays, ev.DelayMs)
	}
	return attempts, delays
}

var _ = Describe("model retries at their edges (RUNTIME §12.3)", func() {
	It("numbers retries from 1 and keeps the last delay of the ladder for every retry beyond it", func() {
		m := newFnModel(retryable("slow down 1"), retryable("slow down 2"), retryable("slow down 3"),
			[]port.RoundEvent{started(), doneText("Recovered after three retries.")})
		e := newEnv(m)
		e.timers = &recordingTimers{}
		r := e.start(withRetries(noGateRequest("run-retry-ladder-end"), 3, 10, 20))
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
		attempts, delays := retryEvents(e)
		Expect(attempts).To(Equal([]int{1, 2, 3}))
		Expect(delays).To(Equal([]int64{10, 20, 20}))
		Expect(e.clock.SleepsMs()).To(Equal([]int64{10, 20, 20}))
		Expect(m.requestCount()).To(Equal(4))
	})

	It("skips a retry when the time left equals the backoff plus the time the failed attempt took", func() {
		// The failed attempt takes 200 ms of a 1400 ms budget: 1200 ms are
		// left, exactly the 1000 ms backoff plus the 200 ms spent.
		m := &hookedModel{fnModel: newFnModel(retryable("slow down"), []port.RoundEvent{started(), doneText("never")})}
		e := newEnv(m)
		e.timers = &recordingTimers{}
		m.hook = func(int) { e.clock.Advance(200 * time.Millisecond) }
		r := e.start(withDeadline(withRetries(noGateRequest("run-retry-exact-skip"), 1, 1000), 1400))
		Expect(r.Status).To(Equal(run.StatusFailed))
		Expect(r.ErrorCode).To(Equal(run.CodeProviderError))
		Expect(r.ErrorMessage).To(Equal("Model retry 1 skipped: the run has 1200ms of budget left, below the 1000ms backoff plus 200ms spent on the failed request. Raise the scenario deadline or reduce per-attempt work instead of retrying."))
		Expect(m.requestCount()).To(Equal(1))
		Expect(e.eventsOf(run.EventModelRetry)).To(BeEmpty())
	})

	It("retries when one millisecond more than the backoff plus the failed attempt's time is left", func() {
		m := &hookedModel{fnModel: newFnModel(retryable("slow down"), []port.RoundEvent{started(), doneText("Recovered.")})}
		e := newEnv(m)
		e.timers = &recordingTimers{}
		m.hook = func(i int) {
			if i == 0 {
				e.clock.Advance(200 * time.Millisecond)
			}
		}
		r := e.start(withDeadline(withRetries(noGateRequest("run-retry-one-more"), 1, 1000), 1401))
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
		Expect(e.clock.SleepsMs()).To(Equal([]int64{1000}))
	})

	It("ends paused, not cancelled, when a pause arrives during the retry backoff", func() {
		m := newFnModel(retryable("slow down"), []port.RoundEvent{started(), doneText("never")})
		e := newEnv(m)
		e.timers = &recordingTimers{}
		e.onEvent = func(c *run.Controller, ev run.Event) {
			if ev.Type == run.EventModelRetry {
				c.Pause(ev.RunID, "user paused during backoff")
			}
		}
		r := e.start(withRetries(noGateRequest("run-pause-backoff"), 2, 60000))
		Expect(r.Status).To(Equal(run.StatusPaused), r.ErrorMessage)
		Expect(r.ErrorCode).To(BeEmpty())
		Expect(r.Transitions[len(r.Transitions)-1].Reason).To(Equal("user paused during backoff"))
		Expect(m.requestCount()).To(Equal(1))
	})

	It("ends cancelled with CANCELED when the retry sleep fails with no control request", func() {
		m := newFnModel(retryable("slow down"), []port.RoundEvent{started(), doneText("never")})
		e := newEnv(m)
		e.timers = &recordingTimers{}
		d := e.deps()
		d.Sleeper = failingSleeper{}
		h, err := run.New(d).Start(withRetries(noGateRequest("run-sleep-fails"), 2, 10))
		Expect(err).NotTo(HaveOccurred())
		r := wait(h)
		Expect(r.Status).To(Equal(run.StatusCancelled))
		Expect(r.ErrorCode).To(Equal(run.CodeCanceled))
		Expect(r.ErrorMessage).To(Equal("AI Coder run was canceled."))
		Expect(transitions(r)).To(HaveLen(3))
		Expect(r.Transitions[2].To).To(Equal(run.StateCancelled))
		Expect(r.Transitions[2].Reason).To(Equal("AI Coder run was canceled."))
		Expect(m.requestCount()).To(Equal(1))
	})
})
