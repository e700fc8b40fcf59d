package model

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/galaxy-stack/conform/core/port"
)

// Round is one scripted model round in the original fixture shape (LAB
// §1.2): either structured (Content, ToolCalls, FinishReason, token counts)
// or raw (Events). A round with a non-empty Events list is raw and its other
// fields are ignored; the scenario loader rejects rounds that mix the two.
type Round struct {
	Content      *string    `json:"content,omitempty"`
	ToolCalls    []ToolCall `json:"toolCalls,omitempty"`
	FinishReason string     `json:"finishReason,omitempty"`
	InputTokens  *int       `json:"inputTokens,omitempty"`
	OutputTokens *int       `json:"outputTokens,omitempty"`
	Events       []Event    `json:"events,omitempty"`
}

// ToolCall is a scripted call in the fixture shape. Arguments is a JSON
// object.
type ToolCall struct {
	ToolCallID string         `json:"toolCallId"`
	ToolName   string         `json:"toolName"`
	Arguments  map[string]any `json:"arguments"`
}

// Event is one raw stream event in the fixture shape (LAB §1.2). Type
// selects which fields are meaningful: Delta for content and thinking, Call
// for tool_call, Usage for usage, Code, Message and Retryable for error,
// Content, Thinking, StopReason and Identity for done.
type Event struct {
	Type       string           `json:"type"`
	Delta      *string          `json:"delta,omitempty"`
	Call       *ToolCall        `json:"call,omitempty"`
	Usage      *port.TokenUsage `json:"usage,omitempty"`
	Code       string           `json:"code,omitempty"`
	Message    string           `json:"message,omitempty"`
	Retryable  *bool            `json:"retryable,omitempty"`
	Content    *string          `json:"content,omitempty"`
	Thinking   *string          `json:"thinking,omitempty"`
	StopReason string           `json:"stopReason,omitempty"`
	Identity   *EventIdentity   `json:"identity,omitempty"`
}

// EventIdentity is the optional identity of a raw done event. A nil field
// takes the double's own value.
type EventIdentity struct {
	BaseURL        *string `json:"baseUrl,omitempty"`
	Model          *string `json:"model,omitempty"`
	Provider       *string `json:"provider,omitempty"`
	RuntimeVersion *string `json:"runtimeVersion,omitempty"`
}

// Overrides is the fixture's "model" object (LAB §1.6): the capability
// snapshot's context window and output limit, and the token-count queue.
type Overrides struct {
	ContextWindow   *int        `json:"contextWindow,omitempty"`
	MaxOutputTokens *int        `json:"maxOutputTokens,omitempty"`
	TokenCountSteps []TokenStep `json:"tokenCountSteps,omitempty"`
}

// TokenStep is one scripted token count (LAB §1.6): a provider count of
// Tokens, or, when Err is set, a structured provider counting error. In JSON
// it is a bare integer or an object {code, message, retryable?}.
type TokenStep struct {
	Tokens int
	Err    *StepError
}

// StepError is a scripted token-counting failure. Retryable defaults to
// false.
type StepError struct {
	Code      string `json:"code"`
	Message   string `json:"message"`
	Retryable *bool  `json:"retryable,omitempty"`
}

// Count returns a token step that counts n tokens.
func Count(n int) TokenStep { return TokenStep{Tokens: n} }

// CountError returns a token step that fails with code and message.
func CountError(code, message string, retryable bool) TokenStep {
	return TokenStep{Err: &StepError{Code: code, Message: message, Retryable: &retryable}}
}

// MarshalJSON writes a count as an integer and a failure as an object.
func (s TokenStep) MarshalJSON() ([]byte, error) {
	if s.Err != nil {
		return json.Marshal(s.Err)
	}
	return json.Marshal(s.Tokens)
}

// UnmarshalJSON reads an integer or an object with exactly the keys code,
// message and, optionally, retryable.
func (s *TokenStep) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '{' {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		var e StepError
		if err := dec.Decode(&e); err != nil {
			return fmt.Errorf("model: token-count step: %w", err)
		}
		*s = TokenStep{Err: &e}
		return nil
	}
	var n int
	if err := json.Unmarshal(data, &n); err != nil {
		return fmt.Errorf("model: token-count step %q is neither an integer nor an error object", data)
	}
	*s = TokenStep{Tokens: n}
	return nil
}

// TextRound returns a structured round that answers with content and stops.
func TextRound(content string) Round {
	return Round{Content: &content, FinishReason: "stop"}
}

// CallRound returns a structured round that makes calls.
func CallRound(calls ...ToolCall) Round {
	return Round{ToolCalls: calls, FinishReason: "tool_calls"}
}

// ErrorRound returns a raw round that starts and then fails with a provider
// error: a retryable one when retryable is true.
func ErrorRound(code, message string, retryable bool) Round {
	return Round{Events: []Event{
		{Type: port.EventStarted},
		{Type: port.EventError, Code: code, Message: message, Retryable: &retryable},
	}}
}
