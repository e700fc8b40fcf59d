package port

import "context"

// Message is one entry of the conversation sent to the coding model. Role is
// "system", "user", "assistant" or "tool". Tool messages carry the call they
// answer; assistant messages may carry the calls the model made.
type Message struct {
	Role       string     `json:"role"`
	Content    string     `json:"content"`
	Thinking   string     `json:"thinking,omitempty"`
	ToolCalls  []ToolCall `json:"toolCalls,omitempty"`
	ToolCallID string     `json:"toolCallId,omitempty"`
	ToolName   string     `json:"toolName,omitempty"`
}

// ToolCall is one call emitted by the model. Name is the model-facing tool
// name; the core routes it to a canonical ID.
type ToolCall struct {
	ToolCallID string         `json:"toolCallId"`
	Name       string         `json:"name"`
	Arguments  map[string]any `json:"arguments"`
}

// ToolDefinition is a model-facing tool definition (the "function" shape).
type ToolDefinition struct {
	Type     string       `json:"type"`
	Function FunctionSpec `json:"function"`
}

// FunctionSpec is the function part of a ToolDefinition.
type FunctionSpec struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Parameters  map[string]any `json:"parameters"`
}

// RoundRequest is one model round: the full message list (the core assumes
// no stateful provider session) and the tools offered in this round. An
// empty Tools list is a tool-free turn. Attachments are the run request's
// attachments, resent on every round (nil when the request has none).
type RoundRequest struct {
	Attachments      []Attachment     `json:"attachments,omitempty"`
	Messages         []Message        `json:"messages"`
	Tools            []ToolDefinition `json:"tools"`
	Think            bool             `json:"think"`
	PreserveThinking bool             `json:"preserveThinking"`
	MaxOutputTokens  int              `json:"maxOutputTokens,omitempty"`
}

// TokenUsage is the provider's token accounting for a round; every field is
// optional.
type TokenUsage struct {
	CachedInputTokens *int `json:"cachedInputTokens,omitempty"`
	InputTokens       *int `json:"inputTokens,omitempty"`
	OutputTokens      *int `json:"outputTokens,omitempty"`
	ReasoningTokens   *int `json:"reasoningTokens,omitempty"`
	TotalTokens       *int `json:"totalTokens,omitempty"`
}

// ModelIdentity names one model deployment.
type ModelIdentity struct {
	BaseURL        string `json:"baseUrl"`
	Model          string `json:"model"`
	Provider       string `json:"provider"`
	Digest         string `json:"digest,omitempty"`
	RuntimeVersion string `json:"runtimeVersion,omitempty"`
	Tag            string `json:"tag,omitempty"`
}

// ProviderError is a structured error reported by the model provider.
// Code is one of AUTHENTICATION, CANCELED, CAPABILITY_MISMATCH,
// CONTEXT_WINDOW_EXCEEDED, MALFORMED_STREAM, PROVIDER_ERROR, RATE_LIMITED,
// TIMEOUT.
type ProviderError struct {
	Code      string `json:"code"`
	Message   string `json:"message"`
	Retryable bool   `json:"retryable"`
	RetryMode string `json:"retryMode,omitempty"`
}

func (e *ProviderError) Error() string { return e.Code + ": " + e.Message }

// Stream event types of a model round, in the order the protocol allows.
const (
	EventStarted  = "started"
	EventThinking = "thinking"
	EventContent  = "content"
	EventToolCall = "tool_call"
	EventUsage    = "usage"
	EventDone     = "done"
	EventError    = "error"
	EventCanceled = "canceled"
)

// Stop reasons carried by a done event.
const (
	StopCompleted = "completed"
	StopToolCalls = "tool_calls"
	StopLength    = "length"
	StopUnknown   = "unknown"
)

// RoundEvent is one event of a streamed model round. Type selects which of
// the other fields is meaningful.
type RoundEvent struct {
	Type       string         `json:"type"`
	Delta      string         `json:"delta,omitempty"`
	Call       *ToolCall      `json:"call,omitempty"`
	Usage      *TokenUsage    `json:"usage,omitempty"`
	Content    string         `json:"content,omitempty"`
	Thinking   string         `json:"thinking,omitempty"`
	Identity   *ModelIdentity `json:"identity,omitempty"`
	StopReason string         `json:"stopReason,omitempty"`
	Error      *ProviderError `json:"error,omitempty"`
}

// TokenCount is the answer to a token-count request.
type TokenCount struct {
	Exact  bool   `json:"exact"`
	Source string `json:"source"` // provider, tokenizer or estimate
	Tokens int    `json:"tokens"`
}

// Model is the coding model port. StreamRound returns the events of one
// round in order; a transport failure that is not a provider event is
// returned as an error.
type Model interface {
	Identity() ModelIdentity
	StreamRound(ctx context.Context, req RoundRequest) ([]RoundEvent, error)
}

// TokenCounter is implemented by models that can count tokens.
type TokenCounter interface {
	CountTokens(ctx context.Context, messages []Message, tools []ToolDefinition) (TokenCount, error)
}
