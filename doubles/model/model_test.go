package model_test

import (
	"context"
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/doubles/model"
)

var _ = Describe("Scripted identity and capabilities", func() {
	It("reports the lab's scripted identity", func() {
		m := model.NewScripted(nil)
		Expect(mustJSON(m.Identity())).To(Equal(identityJSON))
		Expect(mustJSON(model.Identity)).To(Equal(identityJSON))
	})

	It("reports the lab's capability snapshot", func() {
		caps, err := model.NewScripted(nil).Capabilities(context.Background())
		Expect(err).NotTo(HaveOccurred())
		Expect(mustJSON(caps)).To(MatchJSON(`{
			"evidence": [{"observedAt": "1970-01-01T00:00:00.000Z", "source": "static_fallback", "verified": true}],
			"identity": ` + identityJSON + `,
			"input": {"audio": "unsupported", "image": "unsupported", "text": "supported", "video": "unsupported"},
			"output": {"image": "unsupported", "text": "supported"},
			"parallelToolCalling": "supported", "preserveThinking": "supported", "streaming": "supported",
			"structuredOutput": "supported", "tokenCounting": "supported", "toolCalling": "supported",
			"thinking": "optional", "contextWindow": 128000, "maxOutputTokens": 8192
		}`))
	})

	It("applies the fixture's model overrides", func() {
		m := model.NewScripted(nil, model.WithOverrides(model.Overrides{ContextWindow: ptr(32000), MaxOutputTokens: ptr(1024)}))
		caps := m.CapabilitySnapshot()
		Expect(*caps.ContextWindow).To(Equal(32000))
		Expect(*caps.MaxOutputTokens).To(Equal(1024))
		Expect(*model.NewScripted(nil, model.WithContextWindow(7)).CapabilitySnapshot().ContextWindow).To(Equal(7))
	})

	It("hands out snapshots that cannot change the double", func() {
		m := model.NewScripted(nil)
		caps := m.CapabilitySnapshot()
		*caps.ContextWindow = 1
		caps.Evidence[0].Verified = false
		caps.Identity.Model = "other"
		again := m.CapabilitySnapshot()
		Expect(*again.ContextWindow).To(Equal(128000))
		Expect(again.Evidence[0].Verified).To(BeTrue())
		Expect(again.Identity.Model).To(Equal("scripted-v1"))
	})

	It("reports a reprobed snapshot from then on, keeping its identity", func() {
		m := model.NewScripted(nil)
		before := m.CapabilitySnapshot()
		m.Reprobe(func(c *port.ModelCapabilities) {
			c.Evidence[0].ObservedAt = "2026-01-01T00:00:00.000Z"
			c.Identity.Model = "ignored"
		})
		caps, err := m.Capabilities(context.Background())
		Expect(err).NotTo(HaveOccurred())
		Expect(caps.Evidence[0].ObservedAt).To(Equal("2026-01-01T00:00:00.000Z"))
		Expect(before.Evidence[0].ObservedAt).To(Equal("1970-01-01T00:00:00.000Z"), "a snapshot handed out earlier changed")
		Expect(caps.Identity.Model).To(Equal("scripted-v1"))
		Expect(m.Identity().Model).To(Equal("scripted-v1"))
	})

	It("is not changed by changes to the package Identity value", func() {
		saved := model.Identity
		DeferCleanup(func() { model.Identity = saved })
		model.Identity.Model = "tampered"
		Expect(model.NewScripted(nil).Identity().Model).To(Equal("scripted-v1"))
	})

	It("fails capabilities with CANCELED when the context is done", func() {
		_, err := model.NewScripted(nil).Capabilities(canceledContext())
		var pe *port.Error
		Expect(err).To(BeAssignableToTypeOf(pe))
		Expect(err).To(MatchError("CANCELED: The fixture run was canceled."))
	})
})

var _ = Describe("Scripted structured rounds", func() {
	It("streams started, content, usage and done with declared token counts", func() {
		m := model.NewScripted([]model.Round{{Content: ptr("Done."), FinishReason: "stop", InputTokens: ptr(10), OutputTokens: ptr(3)}})
		Expect(mustJSON(stream(m, request("task")))).To(MatchJSON(`[
			{"type": "started"},
			{"type": "content", "delta": "Done."},
			{"type": "usage", "usage": {"inputTokens": 10, "outputTokens": 3}},
			{"type": "done", "content": "Done.", "identity": ` + identityJSON + `, "stopReason": "completed",
			 "usage": {"inputTokens": 10, "outputTokens": 3}}
		]`))
	})

	It("streams one tool_call per call, without content, and stops for tool calls", func() {
		m := model.NewScripted([]model.Round{model.CallRound(
			model.ToolCall{ToolCallID: "c1", ToolName: "list_files", Arguments: map[string]any{"path": "."}},
			model.ToolCall{ToolCallID: "c2", ToolName: "read_file", Arguments: map[string]any{"path": "a.txt"}},
		)})
		events := stream(m, request("task"))
		Expect(types(events)).To(Equal([]string{"started", "tool_call", "tool_call", "usage", "done"}))
		Expect(mustJSON(events[1].Call)).To(MatchJSON(`{"toolCallId": "c1", "name": "list_files", "arguments": {"path": "."}}`))
		Expect(events[2].Call.Name).To(Equal("read_file"))
		Expect(events[4].StopReason).To(Equal("tool_calls"))
		Expect(events[4].Content).To(BeEmpty())
	})

	DescribeTable("maps the finish reason to the done stop reason",
		func(r model.Round, want string) {
			events := stream(model.NewScripted([]model.Round{r}), request("task"))
			Expect(events[len(events)-1].StopReason).To(Equal(want))
		},
		Entry("stop", model.Round{Content: ptr("x"), FinishReason: "stop"}, "completed"),
		Entry("absent", model.Round{Content: ptr("x")}, "completed"),
		Entry("length", model.Round{Content: ptr("x"), FinishReason: "length"}, "length"),
		Entry("unknown", model.Round{Content: ptr("x"), FinishReason: "unknown"}, "unknown"),
		Entry("tool_calls without calls", model.Round{FinishReason: "tool_calls", ToolCalls: []model.ToolCall{}}, "tool_calls"),
		Entry("calls with length", model.Round{FinishReason: "length", ToolCalls: []model.ToolCall{{ToolCallID: "a", ToolName: "b", Arguments: map[string]any{}}}}, "tool_calls"),
	)

	It("estimates missing token counts from UTF-8 bytes", func() {
		req := request("task")
		data, err := json.Marshal(req)
		Expect(err).NotTo(HaveOccurred())
		wantInput := (len(data) + 3) / 4

		events := stream(model.NewScripted([]model.Round{{Content: ptr("abcdefghi")}}), req)
		usage := events[2].Usage
		Expect(*usage.InputTokens).To(Equal(wantInput))
		Expect(*usage.OutputTokens).To(Equal(3))

		events = stream(model.NewScripted([]model.Round{{Content: ptr("")}}), req)
		Expect(types(events)).To(Equal([]string{"started", "usage", "done"}), "empty content sends no content event")
		Expect(*events[1].Usage.OutputTokens).To(Equal(1), "the estimate is at least 1")
	})
})

var _ = Describe("Scripted raw rounds", func() {
	It("maps each raw event as the lab does", func() {
		m := model.NewScripted([]model.Round{{Events: []model.Event{
			{Type: "started"},
			{Type: "thinking", Delta: ptr("hmm")},
			{Type: "content", Delta: ptr("hi")},
			{Type: "tool_call", Call: &model.ToolCall{ToolCallID: "x", ToolName: "list_files", Arguments: map[string]any{"path": "."}}},
			{Type: "usage", Usage: &port.TokenUsage{TotalTokens: ptr(9)}},
			{Type: "done", Content: ptr("hi"), StopReason: "tool_calls", Identity: &model.EventIdentity{Model: ptr("other")}},
		}}})
		Expect(mustJSON(stream(m, request("task")))).To(MatchJSON(`[
			{"type": "started"},
			{"type": "thinking", "delta": "hmm"},
			{"type": "content", "delta": "hi"},
			{"type": "tool_call", "call": {"toolCallId": "x", "name": "list_files", "arguments": {"path": "."}}},
			{"type": "usage", "usage": {"totalTokens": 9}},
			{"type": "done", "content": "hi", "stopReason": "tool_calls",
			 "identity": {"baseUrl": "fixture://local", "model": "other", "provider": "galaxy-fixture", "runtimeVersion": "1"}}
		]`))
	})

	It("plays back protocol faults unchanged", func() {
		m := model.NewScripted([]model.Round{{Events: []model.Event{
			{Type: "content", Delta: ptr("before start")},
			{Type: "started"},
			{Type: "started"},
			{Type: "canceled"},
		}}})
		Expect(types(stream(m, request("task")))).To(Equal([]string{"content", "started", "started", "canceled"}))
	})

	It("turns error events into provider errors, not retryable unless declared", func() {
		m := model.NewScripted([]model.Round{
			model.ErrorRound("RATE_LIMITED", "temporary quota", true),
			{Events: []model.Event{{Type: "started"}, {Type: "error", Code: "TIMEOUT", Message: "slow"}}},
		})
		first := stream(m, request("task"))
		Expect(mustJSON(first)).To(MatchJSON(`[{"type": "started"},
			{"type": "error", "error": {"code": "RATE_LIMITED", "message": "temporary quota", "retryable": true}}]`))
		second := stream(m, request("task"))
		Expect(second[1].Error.Retryable).To(BeFalse())
	})
})

var _ = Describe("Scripted cursor", func() {
	It("answers past the end of the script with a provider error and overruns the cursor", func() {
		m := model.NewScripted([]model.Round{model.TextRound("only")})
		stream(m, request("task"))
		Expect(m.Consumed()).To(BeTrue())
		events := stream(m, request("task"))
		Expect(mustJSON(events)).To(MatchJSON(`[{"type": "error", "error": {"code": "PROVIDER_ERROR",
			"message": "Deterministic fixture exhausted its scripted rounds.", "retryable": false}}]`))
		Expect(m.RoundsConsumed()).To(Equal(2))
		Expect(m.RoundCount()).To(Equal(1))
		Expect(m.Consumed()).To(BeFalse())
	})

	It("answers a done context with canceled, records the request and keeps the cursor", func() {
		m := model.NewScripted([]model.Round{model.TextRound("later")})
		events, err := m.StreamRound(canceledContext(), request("task"))
		Expect(err).NotTo(HaveOccurred())
		Expect(mustJSON(events)).To(MatchJSON(`[{"type": "canceled"}]`))
		Expect(m.RequestCount()).To(Equal(1))
		Expect(m.RoundsConsumed()).To(Equal(0))
		Expect(stream(m, request("task"))[1].Delta).To(Equal("later"))
	})

	It("is consumed only when every round and every token step was used", func() {
		m := model.NewScripted([]model.Round{model.TextRound("a")}, model.WithTokenCountSteps(model.Count(1)))
		Expect(m.Consumed()).To(BeFalse())
		stream(m, request("task"))
		Expect(m.Consumed()).To(BeFalse(), "one token step remains")
		_, err := m.CountTokens(context.Background(), nil, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(m.Consumed()).To(BeTrue())
		Expect(model.NewScripted(nil).Consumed()).To(BeTrue(), "an empty script is consumed")
	})
})

var _ = Describe("Scripted token counting", func() {
	It("consumes one scripted step per count, then estimates", func() {
		m := model.NewScripted(nil, model.WithTokenCountSteps(
			model.Count(90000),
			model.CountError("LIMIT_EXCEEDED", "too big", true),
			model.CountError("WEIRD", "odd code", false),
			model.TokenStep{Err: &model.StepError{Code: "UNAVAILABLE", Message: "down"}},
		))
		ctx := context.Background()
		count, err := m.CountTokens(ctx, nil, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(count).To(Equal(port.TokenCount{Exact: true, Source: "provider", Tokens: 90000}))

		_, err = m.CountTokens(ctx, nil, nil)
		Expect(err).To(Equal(&port.Error{Code: "LIMIT_EXCEEDED", Message: "too big", Retryable: true}))
		_, err = m.CountTokens(ctx, nil, nil)
		Expect(err).To(Equal(&port.Error{Code: "PROVIDER_ERROR", Message: "odd code"}), "an unknown code becomes PROVIDER_ERROR")
		_, err = m.CountTokens(ctx, nil, nil)
		Expect(err).To(Equal(&port.Error{Code: "UNAVAILABLE", Message: "down"}), "retryable defaults to false")

		// {"messages":null,"tools":null} is 30 bytes: ceil(30/4) = 8.
		count, err = m.CountTokens(ctx, nil, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(count).To(Equal(port.TokenCount{Exact: false, Source: "estimate", Tokens: 8}))
		Expect(m.TokenStepsConsumed()).To(Equal(4))
		Expect(m.CountInputs()).To(HaveLen(5))
	})

	It("fails with CANCELED on a done context without consuming or recording", func() {
		m := model.NewScripted(nil, model.WithTokenCountSteps(model.Count(5)))
		_, err := m.CountTokens(canceledContext(), nil, nil)
		Expect(err).To(Equal(&port.Error{Code: "CANCELED", Message: "The fixture run was canceled."}))
		Expect(m.TokenStepsConsumed()).To(Equal(0))
		Expect(m.CountInputs()).To(BeEmpty())
	})

	It("reads and writes token steps in the fixture shape", func() {
		var o model.Overrides
		Expect(json.Unmarshal([]byte(`{"tokenCountSteps": [500, {"code": "UNAVAILABLE", "message": "down", "retryable": true}]}`), &o)).To(Succeed())
		Expect(o.TokenCountSteps).To(HaveLen(2))
		Expect(o.TokenCountSteps[0].Tokens).To(Equal(500))
		Expect(o.TokenCountSteps[1].Err.Code).To(Equal("UNAVAILABLE"))
		Expect(mustJSON(o)).To(MatchJSON(`{"tokenCountSteps": [500, {"code": "UNAVAILABLE", "message": "down", "retryable": true}]}`))

		var step model.TokenStep
		Expect(json.Unmarshal([]byte(`{"code": "X", "message": "y", "extra": 1}`), &step)).To(MatchError(ContainSubstring("unknown field")))
		Expect(json.Unmarshal([]byte(`"5"`), &step)).To(MatchError(ContainSubstring("neither an integer")))
	})
})

func types(events []port.RoundEvent) []string {
	out := make([]string, len(events))
	for i, e := range events {
		out[i] = e.Type
	}
	return out
}
