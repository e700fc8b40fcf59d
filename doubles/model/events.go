package model

import (
	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/clone"
	"github.com/galaxy-stack/conform/core/port"
)

// exhaustedMessage answers a request past the end of the script (LAB §8.3).
const exhaustedMessage = "Deterministic fixture exhausted its scripted rounds."

// canceledMessage is the failure of an operation whose context is done
// (LAB §8.1, §8.2).
const canceledMessage = "The fixture run was canceled."

// estimateTokens is the double's token estimate: max(1, ceil(UTF-8 bytes of
// text / 4)) (LAB §8.2, DECISIONS 54).
func estimateTokens(text []byte) int { return estimateSize(len(text)) }

// estimateSize is estimateTokens of a text of n bytes.
func estimateSize(n int) int { return max(1, (n+3)/4) }

// compactJSON encodes v as compact JSON without HTML escaping. The double
// encodes only its own request types, which cannot fail to encode.
func compactJSON(v any) []byte {
	b, err := canon.Stringify(v)
	if err != nil {
		return nil
	}
	return b
}

// structuredEvents turns a structured round into its stream (LAB §8.3 step
// 6): started, content (if non-empty), one tool_call per call, usage, done.
// requestSize is the length of the request's compact JSON, the input token
// estimate's base.
func structuredEvents(r Round, requestSize int, id port.ModelIdentity) []port.RoundEvent {
	content := ""
	if r.Content != nil {
		content = *r.Content
	}
	events := []port.RoundEvent{{Type: port.EventStarted}}
	if content != "" {
		events = append(events, port.RoundEvent{Type: port.EventContent, Delta: content})
	}
	for _, c := range r.ToolCalls {
		call := port.ToolCall{ToolCallID: c.ToolCallID, Name: c.ToolName, Arguments: clone.Object(c.Arguments)}
		events = append(events, port.RoundEvent{Type: port.EventToolCall, Call: &call})
	}
	input, output := 0, 0
	if r.InputTokens != nil {
		input = *r.InputTokens
	} else {
		input = estimateSize(requestSize)
	}
	if r.OutputTokens != nil {
		output = *r.OutputTokens
	} else {
		output = estimateTokens([]byte(content))
	}
	events = append(events, port.RoundEvent{Type: port.EventUsage, Usage: &port.TokenUsage{InputTokens: &input, OutputTokens: &output}})
	doneInput, doneOutput := input, output
	events = append(events, port.RoundEvent{
		Type:       port.EventDone,
		Content:    content,
		Identity:   &id,
		StopReason: stopReason(r),
		Usage:      &port.TokenUsage{InputTokens: &doneInput, OutputTokens: &doneOutput},
	})
	return events
}

// stopReason maps a structured round to its done stop reason: tool_calls
// when the round calls a tool or says so, length or unknown when it says
// so, otherwise completed.
func stopReason(r Round) string {
	switch {
	case len(r.ToolCalls) > 0 || r.FinishReason == "tool_calls":
		return port.StopToolCalls
	case r.FinishReason == "length":
		return port.StopLength
	case r.FinishReason == "unknown":
		return port.StopUnknown
	}
	return port.StopCompleted
}

// rawEvents plays back a raw round (LAB §8.3 step 5), faults included.
func rawEvents(r Round, id port.ModelIdentity) []port.RoundEvent {
	events := make([]port.RoundEvent, 0, len(r.Events))
	for _, e := range r.Events {
		events = append(events, rawEvent(e, id))
	}
	return events
}

func rawEvent(e Event, id port.ModelIdentity) port.RoundEvent {
	switch e.Type {
	case port.EventToolCall:
		out := port.RoundEvent{Type: e.Type}
		if e.Call != nil {
			out.Call = &port.ToolCall{ToolCallID: e.Call.ToolCallID, Name: e.Call.ToolName, Arguments: clone.Object(e.Call.Arguments)}
		}
		return out
	case port.EventError:
		retryable := e.Retryable != nil && *e.Retryable
		return port.RoundEvent{Type: e.Type, Error: &port.ProviderError{Code: e.Code, Message: e.Message, Retryable: retryable}}
	case port.EventDone:
		out := port.RoundEvent{Type: e.Type, StopReason: e.StopReason, Identity: doneIdentity(e.Identity, id)}
		if e.Content != nil {
			out.Content = *e.Content
		}
		if e.Thinking != nil {
			out.Thinking = *e.Thinking
		}
		return out
	case port.EventUsage:
		return port.RoundEvent{Type: e.Type, Usage: cloneUsage(e.Usage)}
	case port.EventContent, port.EventThinking:
		out := port.RoundEvent{Type: e.Type}
		if e.Delta != nil {
			out.Delta = *e.Delta
		}
		return out
	}
	return port.RoundEvent{Type: e.Type}
}

// doneIdentity fills each missing field of a raw done identity from the
// double's identity. Fields beyond the four of LAB §1.2 stay empty.
func doneIdentity(given *EventIdentity, id port.ModelIdentity) *port.ModelIdentity {
	out := port.ModelIdentity{BaseURL: id.BaseURL, Model: id.Model, Provider: id.Provider, RuntimeVersion: id.RuntimeVersion}
	if given != nil {
		pick(&out.BaseURL, given.BaseURL)
		pick(&out.Model, given.Model)
		pick(&out.Provider, given.Provider)
		pick(&out.RuntimeVersion, given.RuntimeVersion)
	}
	return &out
}

func pick(dst *string, src *string) {
	if src != nil {
		*dst = *src
	}
}
