package run_test

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/prompt"
	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/doubles/model"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func withRetries(req run.Request, retries float64, delays ...float64) run.Request {
	req.Budget.MaxModelRetries = run.N(retries)
	if delays != nil {
		req.Budget.ModelRetryDelaysMs = delays
	}
	return req
}

var _ = Describe("model rounds and retries (RUNTIME §12)", func() {
	It("delivers retry feedback in the immediate request and disables optional thinking for without_thinking", func() {
		m := newFnModel(
			[]port.RoundEvent{started(), providerError("MALFORMED_STREAM", "thinking alone produced no visible content or tool call", true, "without_thinking")},
			[]port.RoundEvent{started(), callEvent("workspace_list", "inspect-after-thinking"), doneCalls()},
			[]port.RoundEvent{started(), doneText("Recovered after the bounded retry and inspected the workspace.")},
		)
		e := newEnv(m)
		e.complete(withRetries(baseRequest("run-thinking-only-retry"), 1))
		Expect(m.requests).To(HaveLen(3))
		Expect(m.requests[0].Think).To(BeTrue())
		Expect(m.requests[1].Think).To(BeFalse())
		Expect(m.requests[1].Messages).To(HaveLen(len(m.requests[0].Messages) + 1))
		last := m.requests[1].Messages[len(m.requests[1].Messages)-1].Content
		Expect(last).To(ContainSubstring("hidden thinking disabled"))
		Expect(last).To(ContainSubstring("failure_detail_untrusted"))
	})

	It("keeps thinking when the provider requires it", func() {
		m := newFnModel(
			[]port.RoundEvent{started(), providerError("MALFORMED_STREAM", "required thinking produced no visible result", true, "without_thinking")},
			[]port.RoundEvent{started(), callEvent("workspace_list", "c1"), doneCalls()},
			[]port.RoundEvent{started(), doneText("Recovered while preserving required thinking.")},
		)
		m.caps.Thinking = port.ThinkingRequired
		r := newEnv(m).start(withRetries(baseRequest("run-required-thinking"), 1))
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
		Expect(m.requests[0].Think).To(BeTrue())
		Expect(m.requests[1].Think).To(BeTrue())
		Expect(m.requests[1].Messages[len(m.requests[1].Messages)-1].Content).To(ContainSubstring("preserving required or unverified thinking behavior"))
	})

	It("sleeps the budget's delay ladder in order and reports it in model_retry events", func() {
		e := scripted(model.ErrorRound("TIMEOUT", "provider window closed mid-request", true),
			model.ErrorRound("TIMEOUT", "provider window closed again", true),
			calls(call("workspace_list", "c1")), text("Recovered under the configured backoff schedule."))
		e.complete(withRetries(baseRequest("run-backoff"), 2, 10, 20, 40))
		Expect(e.clock.SleepsMs()).To(Equal([]int64{10, 20}))
		var delays []int64
		for _, ev := range e.eventsOf(run.EventModelRetry) {
			delays = append(delays, ev.DelayMs)
		}
		Expect(delays).To(Equal([]int64{10, 20}))
	})

	It("skips a retry that cannot fit the deadline without a second request", func() {
		e := scripted(model.ErrorRound("TIMEOUT", "model stalled", true))
		req := withRetries(baseRequest("run-retry-skip"), 2, 30000)
		req.Budget.DeadlineMs = run.N(1500)
		r := e.start(req)
		Expect(r.Status).To(Equal(run.StatusFailed))
		Expect(r.ErrorCode).To(Equal(run.CodeProviderError))
		Expect(r.ErrorMessage).To(ContainSubstring("Model retry 1 skipped"))
		Expect(e.model.(*model.Scripted).RequestCount()).To(Equal(1))
		Expect(e.clock.SleepsMs()).To(BeEmpty())
	})

	It("cancels during the backoff without another request", func() {
		e := scripted(model.ErrorRound("TIMEOUT", "provider stalled", true))
		e.onEvent = func(c *run.Controller, ev run.Event) {
			if ev.Type == run.EventModelRetry {
				c.Cancel(ev.RunID, "user cancelled during backoff")
			}
		}
		r := e.start(withRetries(baseRequest("run-cancel-backoff"), 2, 60000))
		Expect(r.Status).To(Equal(run.StatusCancelled))
		Expect(r.ErrorCode).To(Equal(run.CodeCanceled))
		Expect(e.model.(*model.Scripted).RequestCount()).To(Equal(1))
	})

	It("fails a non-retried provider error as PROVIDER_ERROR and AUTHENTICATION as PROVIDER_AUTHENTICATION", func() {
		r := scripted(model.ErrorRound("RATE_LIMITED", "quota", true)).start(baseRequest("run-exhausted"))
		Expect(r.ErrorCode).To(Equal(run.CodeProviderError))
		Expect(r.ErrorMessage).To(Equal("quota"))
		r = scripted(model.ErrorRound("AUTHENTICATION", "bad key", false)).start(withRetries(baseRequest("run-auth"), 3))
		Expect(r.ErrorCode).To(Equal(run.CodeProviderAuthentication))
	})

	It("retries an output-limit stop and fails PROVIDER_ERROR when retries are exhausted (DECISIONS 2)", func() {
		e := scripted(model.Round{Content: sp("partial"), FinishReason: "length"})
		r := e.start(baseRequest("run-length"))
		Expect(r.ErrorCode).To(Equal(run.CodeProviderError))
		Expect(r.ErrorMessage).To(ContainSubstring("Model stopped at the output limit ('length') after 0 tool call(s) and 7 character(s)"))
		m := newFnModel(
			[]port.RoundEvent{started(), {Type: port.EventDone, StopReason: port.StopLength}},
			[]port.RoundEvent{started(), callEvent("workspace_list", "c1"), doneCalls()},
			[]port.RoundEvent{started(), doneText("done")})
		r = newEnv(m).start(withRetries(baseRequest("run-length-retry"), 1))
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
		Expect(m.requests[1].Think).To(BeFalse())
	})

	DescribeTable("stream protocol violations",
		func(events []port.RoundEvent, code, message string) {
			m := newFnModel(events)
			r := newEnv(m).start(baseRequest("run-stream"))
			expectEnded(r, run.StatusFailed, code, message)
			Expect(m.requestCount()).To(Equal(1))
		},
		Entry("an event after done", []port.RoundEvent{started(), doneText("x"), {Type: port.EventContent, Delta: "y"}},
			run.CodeInvalidModelStream, "Model emitted content after the done event."),
		Entry("started twice", []port.RoundEvent{started(), started(), doneText("x")},
			run.CodeInvalidModelStream, "Model emitted an out-of-order or duplicate started event."),
		Entry("payload before started", []port.RoundEvent{{Type: port.EventContent, Delta: "x"}, doneText("x")},
			run.CodeInvalidModelStream, "Model emitted content before the started event."),
		Entry("no done event", []port.RoundEvent{started(), {Type: port.EventContent, Delta: "x"}},
			run.CodeProviderError, "Model stream ended without a done event."),
		Entry("a provider canceled event", []port.RoundEvent{started(), {Type: port.EventCanceled}},
			run.CodeProviderError, "Model stream was canceled."),
		Entry("stop reason unknown", []port.RoundEvent{started(), {Type: port.EventDone, Content: "x", StopReason: port.StopUnknown}},
			run.CodeInvalidModelStream, "Model stopped with non-final reason 'unknown'."),
		Entry("tool_calls without a call", []port.RoundEvent{started(), doneCalls()},
			run.CodeInvalidModelStream, "Model reported tool_calls without emitting a correlated tool call."),
		Entry("calls with another stop reason", []port.RoundEvent{started(), callEvent("workspace_list", "c1"), doneText("x")},
			run.CodeInvalidModelStream, "Model emitted tool calls but stopped with 'completed'."),
		Entry("a changed identity", []port.RoundEvent{started(), {Type: port.EventDone, Content: "x", StopReason: port.StopCompleted,
			Identity: &port.ModelIdentity{BaseURL: "https://other.invalid/", Model: "m", Provider: "p"}}},
			run.CodeCapabilityMismatch, "Model identity changed during the run."),
		Entry("duplicate call ids", []port.RoundEvent{started(), callEvent("workspace_list", "c1"), callEvent("workspace_list", "c1"), doneCalls()},
			run.CodeInvalidModelStream, "Model returned duplicate or empty toolCallId values."),
		Entry("a blank call id", []port.RoundEvent{started(), callEvent("workspace_list", " "), doneCalls()},
			run.CodeInvalidModelStream, "Model returned duplicate or empty toolCallId values."),
		Entry("done content differing from the stream", []port.RoundEvent{started(), {Type: port.EventContent, Delta: "a"}, doneText("b")},
			run.CodeInvalidModelStream, "Model done content does not match streamed content."),
		Entry("done thinking differing from the stream", []port.RoundEvent{started(), {Type: port.EventThinking, Delta: "a"},
			{Type: port.EventDone, Content: "x", Thinking: "b", StopReason: port.StopCompleted}},
			run.CodeInvalidModelStream, "Model done thinking does not match streamed thinking."),
		Entry("a blank completed response", []port.RoundEvent{started(), doneText("  ")},
			run.CodeInvalidModelStream, "Model returned a completed response with no visible content and no tool call."),
	)

	It("forwards every stream event as a model event before validating it (DECISIONS 58)", func() {
		e := scripted(text("Done without tools."))
		req := baseRequest("run-events")
		f := false
		req.Completion = &prompt.Completion{RequireInspection: &f}
		e.complete(req)
		var types []string
		for _, ev := range e.eventsOf(run.EventModel) {
			types = append(types, ev.Model.Type)
			Expect(ev.RunID).To(Equal("run-events"))
			Expect(ev.ExecutionID).To(Equal("execution-1"))
			Expect(ev.ModelTurn).To(Equal(1))
		}
		Expect(types).To(Equal([]string{"started", "content", "usage", "done"}))
	})

	It("ends cancelled with CANCELED when cancel arrives during a streaming round", func() {
		e := scripted(calls(call("workspace_list", "c1")), text("never"))
		controls, err := model.NewControls([]model.Control{{Action: model.ActionCancel, Event: model.OnModel, Occurrence: 2}})
		Expect(err).NotTo(HaveOccurred())
		e.onEvent = func(c *run.Controller, ev run.Event) {
			for _, f := range controls.Observe(ev.Type) {
				if f.Action == model.ActionCancel {
					c.Cancel(ev.RunID, f.Reason)
				}
			}
		}
		r := e.start(baseRequest("run-cancel-stream"))
		Expect(r.Status).To(Equal(run.StatusCancelled))
		Expect(r.ErrorCode).To(Equal(run.CodeCanceled))
		Expect(e.exec.names()).To(BeEmpty())
		Expect(r.Checkpoint).To(BeNil(), "a cancelled run writes no checkpoint")
	})
})

// anonymousModel is fnModel whose done events carry no identity.
type anonymousModel struct{ *fnModel }

func (m anonymousModel) StreamRound(ctx context.Context, req port.RoundRequest) ([]port.RoundEvent, error) {
	events, err := m.fnModel.StreamRound(ctx, req)
	for i := range events {
		events[i].Identity = nil
	}
	return events, err
}

func tokens(input int) *port.TokenUsage { return &port.TokenUsage{InputTokens: &input} }

var _ = Describe("model rounds at their edges (RUNTIME §12.1, §12.2)", func() {
	DescribeTable("asks the model to preserve thinking exactly when the capability is supported",
		func(capability string, want bool) {
			m := newFnModel([]port.RoundEvent{started(), doneText("Reported.")})
			m.caps.PreserveThinking = capability
			r := newEnv(m).start(noGateRequest("run-preserve-thinking"))
			Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
			Expect(m.requests).To(HaveLen(1))
			Expect(m.requests[0].PreserveThinking).To(Equal(want))
		},
		Entry("supported", port.CapabilitySupported, true),
		Entry("unsupported", port.CapabilityUnsupported, false),
		Entry("unknown", port.CapabilityUnknown, false),
	)

	It("forwards the done event with the public identity, without the endpoint's credentials (§33.5)", func() {
		m := newFnModel([]port.RoundEvent{started(), doneText("Reported.")})
		m.identity.BaseURL = "https://user:password@model.invalid/v1?api_key=super-secret#fragment"
		m.caps.Identity = m.identity
		e := newEnv(m)
		e.complete(noGateRequest("run-public-identity"))
		done := e.lastDone()
		Expect(done).NotTo(BeNil())
		Expect(done.Identity).NotTo(BeNil())
		Expect(done.Identity.BaseURL).To(Equal("https://model.invalid/v1"))
		Expect(done.Identity.Model).To(Equal(m.identity.Model))
	})

	It("accepts a done event that carries no identity", func() {
		m := newFnModel([]port.RoundEvent{started(), doneText("Reported without an identity.")})
		e := newEnv(anonymousModel{m})
		r := e.complete(noGateRequest("run-no-identity"))
		Expect(r.FinalResponse).To(Equal("Reported without an identity."))
		done := e.lastDone()
		Expect(done).NotTo(BeNil())
		Expect(done.Identity).To(BeNil())
	})

	It("takes the done event's usage over a usage event, and the last usage event when done has none", func() {
		first := []port.RoundEvent{started(), {Type: port.EventUsage, Usage: tokens(111)}, callEvent("workspace_list", "l"),
			{Type: port.EventDone, StopReason: port.StopToolCalls, Usage: tokens(4321)}}
		second := []port.RoundEvent{started(), {Type: port.EventUsage, Usage: tokens(222)}, doneText("Inspected.")}
		e := newEnv(newFnModel(first, second))
		e.complete(baseRequest("run-done-usage"))
		ledger := e.eventsOf(run.EventTokenLedger)
		Expect(ledger).To(HaveLen(2))
		Expect(ledger[0].Ledger.ActualInput).NotTo(BeNil())
		Expect(*ledger[0].Ledger.ActualInput).To(Equal(4321))
		Expect(ledger[1].Ledger.ActualInput).NotTo(BeNil())
		Expect(*ledger[1].Ledger.ActualInput).To(Equal(222))
	})

	It("records no attachment delivery in the checkpoint of a run without attachments", func() {
		e := newEnv(newFnModel(roundCalls("workspace_list", "l"), []port.RoundEvent{started(), doneText("never")}))
		e.onEvent = pauseAfterFirstResult
		r := e.start(baseRequest("run-no-attachments"))
		Expect(r.Status).To(Equal(run.StatusPaused), r.ErrorMessage)
		Expect(r.Checkpoint).NotTo(BeNil())
		Expect(r.Checkpoint.Delivery.AttachmentsDelivered).To(BeFalse())
	})

	It("records the attachments as delivered once a round with them has started", func() {
		m := newFnModel(roundCalls("workspace_list", "l"), []port.RoundEvent{started(), doneText("never")})
		m.caps.Input.Image = port.CapabilitySupported
		e := newEnv(m)
		e.onEvent = pauseAfterFirstResult
		r := e.start(withScreenshot(baseRequest("run-attachments-delivered")))
		Expect(r.Status).To(Equal(run.StatusPaused), r.ErrorMessage)
		Expect(r.Checkpoint).NotTo(BeNil())
		Expect(r.Checkpoint.Delivery.AttachmentsDelivered).To(BeTrue())
	})
})

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
		e.complete(withRetries(noGateRequest("run-retry-ladder-end"), 3, 10, 20))
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
		expectEnded(r, run.StatusFailed, run.CodeProviderError, "Model retry 1 skipped: the run has 1200ms of budget left, below the 1000ms backoff plus 200ms spent on the failed request. Raise the scenario deadline or reduce per-attempt work instead of retrying.")
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
		e.complete(withDeadline(withRetries(noGateRequest("run-retry-one-more"), 1, 1000), 1401))
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
		expectEnded(r, run.StatusCancelled, run.CodeCanceled, "AI Coder run was canceled.")
		Expect(transitions(r)).To(HaveLen(3))
		Expect(r.Transitions[2].To).To(Equal(run.StateCancelled))
		Expect(r.Transitions[2].Reason).To(Equal("AI Coder run was canceled."))
		Expect(m.requestCount()).To(Equal(1))
	})
})

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

// deadlineRun starts an inspect-then-report run with a deadline of
// deadlineMs; move sets the clock after the first model round, before the
// call it asks for is dispatched.
func deadlineRun(id string, deadlineMs float64, move func(e *env)) (*env, run.Result) {
	m := &hookedModel{fnModel: inspectThenReport()}
	e := newEnv(m)
	e.timers = &recordingTimers{}
	m.hook = func(i int) {
		if i == 0 {
			move(e)
		}
	}
	return e, e.start(withDeadline(baseRequest(id), deadlineMs))
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
		e.complete(withDeadline(baseRequest("run-deadline-armed"), 5000))
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
		e, r := deadlineRun("run-deadline-exact", 5000, func(e *env) { e.clock.Advance(5000 * time.Millisecond) })
		expectEnded(r, run.StatusFailed, run.CodeDeadlineExceeded, "AI Coder run deadline exceeded.")
		Expect(e.exec.names()).To(BeEmpty(), "now ≥ deadline stops the run before the call is dispatched")
	})

	It("continues one millisecond before the deadline", func() {
		e, r := deadlineRun("run-deadline-before", 5000, func(e *env) { e.clock.Advance(4999 * time.Millisecond) })
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
		Expect(e.exec.names()).To(Equal([]string{"workspace_list"}))
	})

	It("caps the deadline at Number.MAX_SAFE_INTEGER milliseconds", func() {
		const maxSafe = 1<<53 - 1
		// now + deadlineMs is past MAX_SAFE_INTEGER, so the deadline is
		// MAX_SAFE_INTEGER itself, which the clock then reaches.
		e, r := deadlineRun("run-deadline-cap", maxSafe, func(e *env) { e.clock.Set(maxSafe) })
		Expect(r.Status).To(Equal(run.StatusFailed))
		Expect(r.ErrorCode).To(Equal(run.CodeDeadlineExceeded))
		Expect(e.exec.names()).To(BeEmpty())
	})
})
