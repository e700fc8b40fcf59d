package model

import (
	"encoding/json"
	"slices"

	"github.com/galaxy-stack/conform/core/port"
)

// cloneValue deep-copies a JSON value as decoded by encoding/json (maps,
// slices of any, strings, numbers, booleans, nil). Values of other types are
// copied through a JSON round trip, which turns them into the generic form.
func cloneValue(v any) any {
	switch t := v.(type) {
	case nil, string, bool, float64, json.Number, int, int64:
		return t
	case map[string]any:
		return cloneObject(t)
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = cloneValue(e)
		}
		return out
	default:
		data, err := json.Marshal(t)
		if err != nil {
			return nil
		}
		var out any
		if json.Unmarshal(data, &out) != nil {
			return nil
		}
		return out
	}
}

func cloneObject(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = cloneValue(v)
	}
	return out
}

func cloneCall(c port.ToolCall) port.ToolCall {
	c.Arguments = cloneObject(c.Arguments)
	return c
}

func cloneMessages(ms []port.Message) []port.Message {
	if ms == nil {
		return nil
	}
	out := make([]port.Message, len(ms))
	for i, m := range ms {
		out[i] = cloneMessage(m)
	}
	return out
}

func cloneMessage(m port.Message) port.Message {
	if m.ToolCalls != nil {
		calls := make([]port.ToolCall, len(m.ToolCalls))
		for j, c := range m.ToolCalls {
			calls[j] = cloneCall(c)
		}
		m.ToolCalls = calls
	}
	return m
}

func cloneTools(ts []port.ToolDefinition) []port.ToolDefinition {
	if ts == nil {
		return nil
	}
	out := make([]port.ToolDefinition, len(ts))
	for i, t := range ts {
		t.Function.Parameters = cloneObject(t.Function.Parameters)
		out[i] = t
	}
	return out
}

func cloneRequest(r port.RoundRequest) port.RoundRequest {
	r.Attachments = slices.Clone(r.Attachments)
	r.Messages = cloneMessages(r.Messages)
	r.Tools = cloneTools(r.Tools)
	return r
}

func cloneUsage(u *port.TokenUsage) *port.TokenUsage {
	if u == nil {
		return nil
	}
	out := port.TokenUsage{
		CachedInputTokens: cloneInt(u.CachedInputTokens),
		InputTokens:       cloneInt(u.InputTokens),
		OutputTokens:      cloneInt(u.OutputTokens),
		ReasoningTokens:   cloneInt(u.ReasoningTokens),
		TotalTokens:       cloneInt(u.TotalTokens),
	}
	return &out
}

func cloneInt(p *int) *int {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
