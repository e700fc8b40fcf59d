package run_test

import (
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
		r := e.start(withRetries(baseRequest("run-thinking-only-retry"), 1))
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
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
		r := e.start(withRetries(baseRequest("run-backoff"), 2, 10, 20, 40))
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
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
			Expect(r.Status).To(Equal(run.StatusFailed))
			Expect(r.ErrorCode).To(Equal(code))
			Expect(r.ErrorMessage).To(Equal(message))
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
		r := e.start(req)
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
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
