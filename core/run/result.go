package run

import (
	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/port"
)

// Terminal statuses of a run result (RUNTIME §7).
const (
	StatusCompleted = StateCompleted
	StatusFailed    = StateFailed
	StatusCancelled = StateCancelled
	StatusPaused    = StatePaused
)

// Result is how a run ended (AiCoderRunResult, RUNTIME §7), plus the call
// records a harness transcript needs.
type Result struct {
	RunID       string
	TaskID      string
	ExecutionID string
	// Status is completed, failed, cancelled or paused.
	Status string
	// ErrorCode and ErrorMessage are the run's error: empty for completed and
	// paused, the failure for failed, the trigger (normally CANCELED) for
	// cancelled.
	ErrorCode    string
	ErrorMessage string
	// FinalResponse is the final report when completed, else "".
	FinalResponse string
	// Checkpoint is the latest acknowledged (or resumed-from) checkpoint.
	Checkpoint  *checkpoint.Checkpoint
	Transitions []Transition
	Validation  []checkpoint.ValidationRecord
	Writes      []checkpoint.Edit
	// Turns is the number of model turns of the run (across resumes).
	Turns int
	// Calls lists every tool call of this execution segment in order,
	// dispatched or answered by the runtime without dispatch.
	Calls []CallRecord
}

// Error returns the run's error, or nil.
func (r Result) Error() *Error {
	if r.ErrorCode == "" {
		return nil
	}
	return &Error{Code: r.ErrorCode, Message: r.ErrorMessage}
}

// A CallRecord is one tool call and what became of it.
type CallRecord struct {
	Call        port.ToolCall
	CanonicalID string
	// Dispatched is true when the call reached the tool executor.
	Dispatched bool
	// Result is the normalized host result or the runtime's synthetic one;
	// nil when the outcome is unknown.
	Result *port.ToolResult
	// Error says why the outcome is unknown.
	Error string
	// Outcome is succeeded, failed or unknown.
	Outcome string
}
