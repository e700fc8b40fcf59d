package port

import (
	"context"
	"encoding/json"
)

// Trace event kinds (CONTRACTS §13.9).
const (
	TraceStateTransition   = "state_transition"
	TraceToolCall          = "tool_call"
	TraceToolResult        = "tool_result"
	TraceTokenLedger       = "token_ledger"
	TraceContextDiagnostic = "context_diagnostic"
	TraceCheckpoint        = "checkpoint"
	TracePromptSnapshot    = "prompt_snapshot"
	TracePolicyDecision    = "policy_decision"
	TraceCompletionGate    = "completion_gate"
)

// TraceEvent is one durable trace record (CONTRACTS §13.9). EventID is
// "<runId>:<executionId>:<sequence>" when the core emits it; Sequence starts
// at 1 per execution; Payload is a JSON object; Timestamp is ISO-8601.
type TraceEvent struct {
	EventID     string          `json:"eventId"`
	ExecutionID string          `json:"executionId"`
	Kind        string          `json:"kind"`
	Payload     json.RawMessage `json:"payload"`
	RunID       string          `json:"runId"`
	Sequence    int64           `json:"sequence"`
	TaskID      string          `json:"taskId"`
	Timestamp   string          `json:"timestamp"`
}

// Clone returns a copy of e that shares no memory with it.
func (e TraceEvent) Clone() TraceEvent {
	out := e
	if e.Payload != nil {
		out.Payload = append(json.RawMessage(nil), e.Payload...)
	}
	return out
}

// Trace is the trace port (CONTRACTS §13.9). Emit records one event; Flush
// durably flushes every accepted event. A failure is returned as an error,
// usually a *Error; the core then marks its trace unhealthy.
type Trace interface {
	Emit(ctx context.Context, event TraceEvent) error
	Flush(ctx context.Context) error
}
