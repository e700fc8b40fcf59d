package run

import "github.com/galaxy-stack/conform/core/port"

// Run statuses.
const (
	StatusCompleted = "completed"
	StatusFailed    = "failed"
	StatusCanceled  = "canceled"
	StatusPaused    = "paused"
)

// Runtime error codes (CONTRACTS §13.10).
const (
	CodeCanceled               = "CANCELED"
	CodeCapabilityMismatch     = "CAPABILITY_MISMATCH"
	CodeCheckpointIncompatible = "CHECKPOINT_INCOMPATIBLE"
	CodeContextBudget          = "CONTEXT_BUDGET"
	CodeDeadlineExceeded       = "DEADLINE_EXCEEDED"
	CodeInvalidModelStream     = "INVALID_MODEL_STREAM"
	CodeMaxToolCalls           = "MAX_TOOL_CALLS"
	CodeMaxTurns               = "MAX_TURNS"
	CodeNoProgress             = "NO_PROGRESS"
	CodePaused                 = "PAUSED"
	CodePersistenceError       = "PERSISTENCE_ERROR"
	CodeProviderError          = "PROVIDER_ERROR"
	CodeProviderAuthentication = "PROVIDER_AUTHENTICATION"
	CodeToolExecution          = "TOOL_EXECUTION"
	CodeToolTimeout            = "TOOL_TIMEOUT"
)

// Request is what a caller asks the runtime to do.
type Request struct {
	TaskID       string
	Task         string
	Mode         string // auto when empty
	MaxTurns     int    // 0 means the default
	MaxToolCalls int    // 0 means the default
}

// Deps are the ports a run uses.
type Deps struct {
	Model port.Model
	Tools port.ToolExecutor
	Clock port.Clock
	IDs   port.IDSource
	// OnEvent, when set, observes runtime events in order.
	OnEvent func(Event)
}

// Event is a runtime event delivered to Deps.OnEvent.
type Event struct {
	Type   string // model, tool_start, tool_result, state
	Turn   int
	Call   *port.ToolCall
	Result *port.ToolResult
	Model  *port.RoundEvent
	State  string
}

// CallRecord is one dispatched tool call and what became of it.
type CallRecord struct {
	Call        port.ToolCall
	CanonicalID string
	Result      *port.ToolResult // nil when the outcome is unknown
	Error       string           // why the outcome is unknown
}

// Result is how a run ended.
type Result struct {
	RunID         string
	Status        string
	ErrorCode     string
	ErrorMessage  string
	FinalResponse string
	Turns         int
	Calls         []CallRecord
}
