package model_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"pgregory.net/rapid"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/doubles/model"
)

// replay plays every request against a fresh double built from rounds and
// steps, counting tokens before each round as the core does, and returns
// the JSON of everything the double answered.
func replay(rounds []model.Round, steps []model.TokenStep, reqs []port.RoundRequest) []byte {
	m := model.NewScripted(rounds, model.WithTokenCountSteps(steps...))
	type answer struct {
		Count      *port.TokenCount  `json:"count,omitempty"`
		CountError error             `json:"countError,omitempty"`
		Events     []port.RoundEvent `json:"events"`
	}
	var answers []answer
	for _, req := range reqs {
		var a answer
		count, err := m.CountTokens(context.Background(), req.Messages, req.Tools)
		if err != nil {
			a.CountError = err
		} else {
			a.Count = &count
		}
		a.Events, _ = m.StreamRound(context.Background(), req)
		answers = append(answers, a)
	}
	data, err := json.Marshal(answers)
	if err != nil {
		panic(err)
	}
	return data
}

var replayScript = []model.Round{
	model.ErrorRound("RATE_LIMITED", "temporary quota", true),
	model.CallRound(model.ToolCall{ToolCallID: "inspect", ToolName: "list_files", Arguments: map[string]any{"path": ".", "depth": 2.0, "z": []any{"a", map[string]any{"k": true}}}}),
	{Events: []model.Event{{Type: "started"}, {Type: "content", Delta: ptr("partial")}, {Type: "done", Content: ptr("partial"), StopReason: "completed"}}},
	model.TextRound("Finished."),
}

var _ = Describe("Scripted replay", func() {
	reqs := []port.RoundRequest{request("task", "list_files"), request("task", "list_files", "read_file"), request("task"), request("task"), request("task")}
	steps := []model.TokenStep{model.Count(500), model.CountError("UNAVAILABLE", "down", true)}

	It("gives the same script and requests the same answers, byte for byte", func() {
		first := replay(replayScript, steps, reqs)
		second := replay(replayScript, steps, reqs)
		Expect(string(second)).To(Equal(string(first)))
		Expect(string(first)).To(ContainSubstring(`"stopReason":"tool_calls"`))
	})

	It("tells a changed script apart", func() {
		changed := append([]model.Round(nil), replayScript...)
		changed[3] = model.TextRound("Finished!")
		Expect(string(replay(changed, steps, reqs))).NotTo(Equal(string(replay(replayScript, steps, reqs))))
	})

	It("tells a changed request apart through the usage estimate", func() {
		other := append([]port.RoundRequest(nil), reqs...)
		other[3] = request("a much longer task description that changes the estimate")
		Expect(string(replay(replayScript, steps, other))).NotTo(Equal(string(replay(replayScript, steps, reqs))))
	})

	It("shares no memory with its script or its callers", func() {
		rounds := []model.Round{
			model.CallRound(model.ToolCall{ToolCallID: "c", ToolName: "t", Arguments: map[string]any{"nested": map[string]any{"v": 1.0}}}),
			model.CallRound(model.ToolCall{ToolCallID: "d", ToolName: "t", Arguments: map[string]any{}}),
		}
		m := model.NewScripted(rounds)
		rounds[0].ToolCalls[0].Arguments["nested"].(map[string]any)["v"] = 2.0

		req := request("task", "t")
		events := stream(m, req)
		Expect(events[1].Call.Arguments).To(Equal(map[string]any{"nested": map[string]any{"v": 1.0}}), "the script was copied")

		events[1].Call.Arguments["nested"].(map[string]any)["v"] = 3.0
		req.Messages[1].Content = "changed"
		req.Tools[0].Function.Parameters["type"] = "changed"
		got := m.Requests()[0]
		Expect(got.Messages[1].Content).To(Equal("task"), "the request was copied on receipt")
		Expect(got.Tools[0].Function.Parameters["type"]).To(Equal("object"))

		got.Messages[0].Content = "changed again"
		Expect(m.Requests()[0].Messages[0].Content).To(Equal("You are a coding agent."), "Requests returns copies")
	})
})

// TestReplayProperty checks, over generated scripts and requests, that two
// doubles built from the same script answer the same requests identically.
func TestReplayProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rounds := rapid.SliceOfN(roundGen(), 0, 6).Draw(t, "rounds")
		steps := rapid.SliceOfN(stepGen(), 0, 4).Draw(t, "steps")
		reqs := rapid.SliceOfN(requestGen(), 0, 8).Draw(t, "requests")
		first, second := replay(rounds, steps, reqs), replay(rounds, steps, reqs)
		if string(first) != string(second) {
			t.Fatalf("replays differ:\n%s\n%s", first, second)
		}
	})
}

func roundGen() *rapid.Generator[model.Round] {
	text := rapid.StringMatching(`[a-zé <>&]{0,12}`)
	return rapid.Custom(func(t *rapid.T) model.Round {
		if rapid.Bool().Draw(t, "raw") {
			kinds := rapid.SliceOfN(rapid.SampledFrom([]string{"started", "thinking", "content", "tool_call", "usage", "done", "error", "canceled"}), 1, 6).Draw(t, "kinds")
			events := make([]model.Event, len(kinds))
			for i, k := range kinds {
				e := model.Event{Type: k, Delta: ptr(text.Draw(t, "delta")), Content: ptr(text.Draw(t, "content")),
					StopReason: "completed", Code: "TIMEOUT", Message: "m", Usage: &port.TokenUsage{InputTokens: ptr(i)}}
				if k == "tool_call" {
					e.Call = &model.ToolCall{ToolCallID: fmt.Sprint("r", i), ToolName: "t", Arguments: map[string]any{"a": text.Draw(t, "arg")}}
				}
				events[i] = e
			}
			return model.Round{Events: events}
		}
		r := model.Round{Content: ptr(text.Draw(t, "content")), FinishReason: rapid.SampledFrom([]string{"", "stop", "length", "unknown", "tool_calls"}).Draw(t, "finish")}
		for i := range rapid.IntRange(0, 3).Draw(t, "calls") {
			r.ToolCalls = append(r.ToolCalls, model.ToolCall{ToolCallID: fmt.Sprint("s", i), ToolName: "t",
				Arguments: map[string]any{"x": text.Draw(t, "x"), "n": float64(i), "list": []any{i > 0, nil}}})
		}
		if rapid.Bool().Draw(t, "declared") {
			r.InputTokens, r.OutputTokens = ptr(rapid.IntRange(0, 9).Draw(t, "in")), ptr(rapid.IntRange(0, 9).Draw(t, "out"))
		}
		return r
	})
}

func stepGen() *rapid.Generator[model.TokenStep] {
	return rapid.Custom(func(t *rapid.T) model.TokenStep {
		if rapid.Bool().Draw(t, "fails") {
			return model.CountError(rapid.SampledFrom([]string{"UNAVAILABLE", "NOPE"}).Draw(t, "code"), "m", rapid.Bool().Draw(t, "retryable"))
		}
		return model.Count(rapid.IntRange(0, 100000).Draw(t, "tokens"))
	})
}

func requestGen() *rapid.Generator[port.RoundRequest] {
	return rapid.Custom(func(t *rapid.T) port.RoundRequest {
		tools := rapid.SliceOfN(rapid.SampledFrom([]string{"list_files", "read_file", "edit_file"}), 0, 3).Draw(t, "tools")
		req := request(rapid.StringMatching(`[a-z ]{0,40}`).Draw(t, "task"), tools...)
		req.Think = rapid.Bool().Draw(t, "think")
		return req
	})
}
