package run_test

import (
	"context"
	"sync"
	"time"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/run"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// recordingTimers arms no wall-clock timer: it records the duration of every
// timer armed, in order, and which of them were stopped. None ever fires, so
// only the clock port decides a deadline.
type recordingTimers struct {
	mu      sync.Mutex
	armed   []time.Duration
	stopped []int
}

func (t *recordingTimers) AfterFunc(d time.Duration, _ func()) func() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	i := len(t.armed)
	t.armed = append(t.armed, d)
	return func() bool {
		t.mu.Lock()
		defer t.mu.Unlock()
		t.stopped = append(t.stopped, i)
		return true
	}
}

func (t *recordingTimers) armedDurations() []time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]time.Duration(nil), t.armed...)
}

func (t *recordingTimers) stoppedTimers() []int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]int(nil), t.stopped...)
}

// hookedModel is fnModel with a hook run at the start of each request (i
// counts the requests from 0), to move the fake clock inside a model
// attempt.
type hookedModel struct {
	*fnModel
	hook func(i int)
	n    int
}

func (m *hookedModel) StreamRound(ctx context.Context, req port.RoundRequest) ([]port.RoundEvent, error) {
	m.fnModel.mu.Lock()
	i := m.n
	m.n++
	m.fnModel.mu.Unlock()
	if m.hook != nil {
		m.hook(i)
	}
	return m.fnModel.StreamRound(ctx, req)
}

// inspectThenReport is one inspection round, then a final report.
func inspectThenReport() *fnModel {
	return newFnModel(roundCalls("workspace_list", "l"), []port.RoundEvent{started(), doneText("Inspected.")})
}

func withDeadline(req run.Request, ms float64) run.Request {
	req.Budget.DeadlineMs = run.N(ms)
	return req
}

var _ = Describe("the run deadline at its edges (RUNTIME §10.1 step 7, §22.1)", func() {
	It("arms the deadline timer for the time left at launch and stops it when the run ends", func() {
		e := newEnv(inspectThenReport())
		timers := &recordingTimers{}
		e.timers = timers
		r := e.start(withDeadline(baseRequest("run-deadline-armed"), 5000))
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
		armed := timers.armedDurations()
		Expect(armed).NotTo(BeEmpty())
		Expect(armed[0]).To(Equal(5000*time.Millisecond), "the deadline timer is the first one armed, for the whole budget")
		Expect(timers.stoppedTimers()).To(ContainElement(0), "the deadline timer is cleared when the run settles")
	})

	It("aborts at launch without arming a timer when no time is left at all", func() {
		e := newEnv(inspectThenReport())
		timers := &recordingTimers{}
		e.timers = timers
		// Every clock read moves the clock by the whole budget, so the
		// launch reads its deadline and then finds exactly 0 ms left.
		e.clock.SetStep(1000 * time.Millisecond)
		r := e.start(withDeadline(baseRequest("run-deadline-zero"), 1000))
		Expect(r.Status).To(Equal(run.StatusFailed))
		Expect(r.ErrorCode).To(Equal(run.CodeDeadlineExceeded))
		Expect(timers.armedDurations()).To(BeEmpty(), "remaining ≤ 0 aborts now instead of arming a timer")
	})

	It("fails DEADLINE_EXCEEDED before the next dispatch when the clock reaches the deadline exactly", func() {
		m := &hookedModel{fnModel: inspectThenReport()}
		e := newEnv(m)
		e.timers = &recordingTimers{}
		m.hook = func(i int) {
			if i == 0 {
				e.clock.Advance(5000 * time.Millisecond)
			}
		}
		r := e.start(withDeadline(baseRequest("run-deadline-exact"), 5000))
		Expect(r.Status).To(Equal(run.StatusFailed))
		Expect(r.ErrorCode).To(Equal(run.CodeDeadlineExceeded))
		Expect(r.ErrorMessage).To(Equal("AI Coder run deadline exceeded."))
		Expect(e.exec.names()).To(BeEmpty(), "now ≥ deadline stops the run before the call is dispatched")
	})

	It("continues one millisecond before the deadline", func() {
		m := &hookedModel{fnModel: inspectThenReport()}
		e := newEnv(m)
		e.timers = &recordingTimers{}
		m.hook = func(i int) {
			if i == 0 {
				e.clock.Advance(4999 * time.Millisecond)
			}
		}
		r := e.start(withDeadline(baseRequest("run-deadline-before"), 5000))
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
		Expect(e.exec.names()).To(Equal([]string{"workspace_list"}))
	})

	It("caps the deadline at Number.MAX_SAFE_INTEGER milliseconds", func() {
		const maxSafe = 1<<53 - 1
		m := &hookedModel{fnModel: inspectThenReport()}
		e := newEnv(m)
		e.timers = &recordingTimers{}
		m.hook = func(i int) {
			if i == 0 {
				e.clock.Set(maxSafe)
			}
		}
		// now + deadlineMs is past MAX_SAFE_INTEGER, so the deadline is
		// MAX_SAFE_INTEGER itself, which the clock then reaches.
		r := e.start(withDeadline(baseRequest("run-deadline-cap"), maxSafe))
		Expect(r.Status).To(Equal(run.StatusFailed))
		Expect(r.ErrorCode).To(Equal(run.CodeDeadlineExceeded))
		Expect(e.exec.names()).To(BeEmpty())
	})
})
