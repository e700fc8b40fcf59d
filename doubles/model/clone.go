package model

import (
	"slices"

	"github.com/galaxy-stack/conform/core/clone"
	"github.com/galaxy-stack/conform/core/port"
)

func cloneCall(c port.ToolCall) port.ToolCall {
	c.Arguments = clone.Object(c.Arguments)
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
		t.Function.Parameters = clone.Object(t.Function.Parameters)
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
		CachedInputTokens: clone.Ptr(u.CachedInputTokens),
		InputTokens:       clone.Ptr(u.InputTokens),
		OutputTokens:      clone.Ptr(u.OutputTokens),
		ReasoningTokens:   clone.Ptr(u.ReasoningTokens),
		TotalTokens:       clone.Ptr(u.TotalTokens),
	}
	return &out
}
