package model_test

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"testing"

	"pgregory.net/rapid"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/doubles/model"
)

// compactLen is the length of v's compact JSON without HTML escaping.
func compactLen(t *rapid.T, v any) int {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatalf("encode: %v", err)
	}
	return b.Len() - 1
}

// wantEstimate is the double's estimate for a text of n bytes.
func wantEstimate(n int) int { return max(1, (n+3)/4) }

// messageGen draws messages whose contents repeat, so that equal contents
// carry different roles, thinking and tool calls.
func messageGen() *rapid.Generator[port.Message] {
	return rapid.Custom(func(t *rapid.T) port.Message {
		m := port.Message{
			Role:    rapid.SampledFrom([]string{"user", "assistant", "tool"}).Draw(t, "role"),
			Content: rapid.SampledFrom([]string{"", "same", "<a & b>", "ünïcode \u2028", `{"k":"v"}`}).Draw(t, "content"),
		}
		if rapid.Bool().Draw(t, "thinking") {
			m.Thinking = "thought"
		}
		for i := range rapid.IntRange(0, 2).Draw(t, "calls") {
			m.ToolCalls = append(m.ToolCalls, port.ToolCall{ToolCallID: "c", Name: "probe",
				Arguments: map[string]any{"path": rapid.SampledFrom([]string{"a", "bb", "<ccc>"}).Draw(t, "path"), "n": rapid.SampledFrom([]float64{0, math.Copysign(0, -1), float64(i + 1)}).Draw(t, "n")}})
		}
		return m
	})
}

// nextTools returns the tools of the next request from those of the last:
// the same list, the list edited in place (a parameter changed, or 0 made
// -0, an equal number with different JSON), a new equal list, another
// list, an empty list or none.
func nextTools(t *rapid.T, tools []port.ToolDefinition) []port.ToolDefinition {
	fresh := func(n float64) []port.ToolDefinition {
		return []port.ToolDefinition{{Type: "function", Function: port.FunctionSpec{Name: "probe", Description: "<probe & see>",
			Parameters: map[string]any{"type": "object", "n": n}}}}
	}
	switch rapid.IntRange(0, 6).Draw(t, "tools") {
	case 0, 1:
		return tools
	case 2:
		if len(tools) > 0 {
			if n, _ := tools[0].Function.Parameters["n"].(float64); n == 0 && rapid.Bool().Draw(t, "flip tool sign") {
				tools[0].Function.Parameters["n"] = -n
			} else {
				tools[0].Function.Parameters["type"] = "edited in place"
			}
		}
		return tools
	case 3:
		return fresh(0)
	case 4:
		return append(fresh(1), fresh(2)...)
	case 5:
		return []port.ToolDefinition{}
	}
	return nil
}

// TestPropertyEstimatesFollowTheConversation: over a conversation whose
// history and tools the caller resends, extends and edits in place between
// calls, every estimate is that of the whole input's compact JSON at the time of
// the call, and the records are the inputs as they were then.
func TestPropertyEstimatesFollowTheConversation(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := model.NewScripted([]model.Round{model.TextRound("a"), model.TextRound("b"), model.TextRound("c"),
			model.TextRound("d"), model.TextRound("e")})
		ctx := context.Background()
		var msgs []port.Message
		var tools []port.ToolDefinition
		var sentRequests, sentCounts []string
		for i := range rapid.IntRange(1, 5).Draw(t, "requests") {
			msgs = append(msgs, rapid.SliceOfN(messageGen(), 0, 3).Draw(t, "new")...)
			if len(msgs) > 0 && rapid.Bool().Draw(t, "edit") {
				k := rapid.IntRange(0, len(msgs)-1).Draw(t, "edited")
				if len(msgs[k].ToolCalls) > 0 {
					args := msgs[k].ToolCalls[0].Arguments
					if n, _ := args["n"].(float64); n == 0 && rapid.Bool().Draw(t, "flip sign") {
						args["n"] = -n // 0 and -0 are equal numbers with different JSON
					} else {
						args["path"] = "edited in place"
					}
				} else {
					msgs[k].Thinking += "more"
				}
			}
			tools = nextTools(t, tools)
			req := port.RoundRequest{Messages: msgs, Tools: tools, Think: i%2 == 0}
			count, err := m.CountTokens(ctx, msgs, req.Tools)
			if err != nil {
				t.Fatalf("count: %v", err)
			}
			if want := wantEstimate(compactLen(t, model.CountInput{Messages: msgs, Tools: req.Tools})); count.Tokens != want {
				t.Fatalf("count %d: estimate %d, want %d", i, count.Tokens, want)
			}
			events, _ := m.StreamRound(ctx, req)
			usage := events[len(events)-1].Usage
			if usage == nil {
				t.Fatalf("request %d: no usage in %+v", i, events)
			}
			if want := wantEstimate(compactLen(t, req)); *usage.InputTokens != want {
				t.Fatalf("request %d: input estimate %d, want %d", i, *usage.InputTokens, want)
			}
			sentRequests = append(sentRequests, mustJSONRapid(t, req))
			sentCounts = append(sentCounts, mustJSONRapid(t, model.CountInput{Messages: msgs, Tools: req.Tools}))
		}
		for i, r := range m.Requests() {
			if got := mustJSONRapid(t, r); got != sentRequests[i] {
				t.Fatalf("request record %d is %s, was sent as %s", i, got, sentRequests[i])
			}
		}
		for i, in := range m.CountInputs() {
			if got := mustJSONRapid(t, in); got != sentCounts[i] {
				t.Fatalf("count record %d is %s, was sent as %s", i, got, sentCounts[i])
			}
		}
	})
}

func mustJSONRapid(t *rapid.T, v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return string(data)
}

// TestEstimateOfUnencodableInput: a request that does not encode to JSON
// (a NaN argument) is estimated as an empty text, 1 token, and does not
// stay in the double's cache.
func TestEstimateOfUnencodableInput(t *testing.T) {
	m := model.NewScripted([]model.Round{model.TextRound("a"), model.TextRound("b")})
	msgs := []port.Message{{Role: "assistant", ToolCalls: []port.ToolCall{{ToolCallID: "c", Name: "probe", Arguments: map[string]any{"n": math.NaN()}}}}}
	for i := range 2 {
		count, err := m.CountTokens(context.Background(), msgs, nil)
		if err != nil || count.Tokens != 1 {
			t.Fatalf("count %d: %+v, %v; want 1 token", i, count, err)
		}
		events, _ := m.StreamRound(context.Background(), port.RoundRequest{Messages: msgs})
		if got := *events[len(events)-1].Usage.InputTokens; got != 1 {
			t.Fatalf("request %d: input estimate %d, want 1", i, got)
		}
	}
}
