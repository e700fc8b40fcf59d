package run

import (
	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/port"
)

// Runtime event types (RUNTIME §27).
const (
	EventModel              = "model"
	EventToolStart          = "tool_start"
	EventToolResult         = "tool_result"
	EventModelRetry         = "model_retry"
	EventCheckpoint         = "checkpoint"
	EventCompaction         = "compaction"
	EventPlan               = "plan"
	EventCompletionRejected = "completion_rejected"
	EventContextPressure    = "context_pressure"
	EventTokenLedger        = "token_ledger"
	EventState              = "state"
)

// An Event is a runtime event delivered to Deps.OnEvent (RUNTIME §27). The
// envelope (ExecutionID, ModelTurn, RunID, TaskID) is always set; Type says
// which of the payload members are meaningful:
//
//   - model: Model (the raw stream event; a done event carries the public
//     identity);
//   - tool_start: Call;
//   - tool_result: Call, Result (normalized or synthetic);
//   - model_retry: Attempt, DelayMs, Message;
//   - checkpoint: Checkpoint, Reason;
//   - plan: Plan, ToolCallID, Turn;
//   - completion_rejected: Candidate, Issues, ResearchEvidence;
//   - context_pressure: Pressure, Tokens (the current input estimate);
//   - token_ledger: Ledger;
//   - state: Transition.
type Event struct {
	Type        string `json:"type"`
	ExecutionID string `json:"executionId"`
	ModelTurn   int    `json:"modelTurn"`
	RunID       string `json:"runId"`
	TaskID      string `json:"taskId"`

	Model            *port.RoundEvent       `json:"event,omitempty"`
	Call             *port.ToolCall         `json:"call,omitempty"`
	Result           *port.ToolResult       `json:"result,omitempty"`
	Attempt          int                    `json:"attempt,omitempty"`
	DelayMs          int64                  `json:"delayMs,omitempty"`
	Message          string                 `json:"message,omitempty"`
	Checkpoint       *checkpoint.Checkpoint `json:"checkpoint,omitempty"`
	Reason           string                 `json:"reason,omitempty"`
	Plan             *checkpoint.Plan       `json:"plan,omitempty"`
	ToolCallID       string                 `json:"toolCallId,omitempty"`
	Turn             int                    `json:"turn,omitempty"`
	Candidate        string                 `json:"candidate,omitempty"`
	Issues           []string               `json:"issues,omitempty"`
	ResearchEvidence *ResearchEvidence      `json:"researchEvidence,omitempty"`
	Transition       *Transition            `json:"transition,omitempty"`
	Pressure         string                 `json:"pressure,omitempty"`
	Tokens           int                    `json:"tokens,omitempty"`
	Ledger           *TokenLedger           `json:"ledger,omitempty"`
}

// TokenLedger is the ledger summary of a token_ledger event (RUNTIME §27):
// nil pointers are unknown values.
type TokenLedger struct {
	ActualInput            *int     `json:"actualInput"`
	CacheHitRate           *float64 `json:"cacheHitRate"`
	CachedInput            *int     `json:"cachedInput"`
	CumulativeCacheHitRate *float64 `json:"cumulativeCacheHitRate"`
	OutputTokens           int      `json:"outputTokens"`
	Turn                   int      `json:"turn"`
}

// ResearchEvidence is the research part of a completion_rejected event
// (RUNTIME §20.3).
type ResearchEvidence struct {
	FetchedURLs          []string     `json:"fetchedUrls"`
	SearchOnlyURLs       []string     `json:"searchOnlyUrls"`
	Sources              []GateSource `json:"sources"`
	UnsupportedCitations []string     `json:"unsupportedCitations"`
}

// emitEvent delivers e with the envelope filled in. Observer panics are
// swallowed: observers are outside the correctness boundary.
func (s *session) emitEvent(e Event) {
	if s.deps.OnEvent == nil {
		return
	}
	e.ExecutionID, e.RunID, e.TaskID, e.ModelTurn = s.executionID, s.runID, s.req.TaskID, s.modelTurns
	defer func() { _ = recover() }()
	s.deps.OnEvent(e)
}
