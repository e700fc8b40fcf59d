package window

import (
	"fmt"
	"strings"

	"github.com/galaxy-stack/conform/core/checkpoint"
)

// RuntimeCode is the runtime error code every [BudgetError] maps to
// (RUNTIME §11 steps 6–7, DECISIONS 41).
const RuntimeCode = "CONTEXT_BUDGET"

// Context-budget error codes (CONTRACTS §12.4 AiCoderContextBudgetError),
// plus [CodeProviderOverflow].
const (
	CodeCheckpointUnavailable    = "CHECKPOINT_UNAVAILABLE"
	CodeHardLimit                = "HARD_LIMIT"
	CodeMandatoryContextTooLarge = "MANDATORY_CONTEXT_TOO_LARGE"
	CodeToolDefinitionsTooLarge  = "TOOL_DEFINITIONS_TOO_LARGE"
	// CodeProviderOverflow is conform's label for the runtime's second
	// provider overflow after a forced compaction (RUNTIME §11 step 7). The
	// original raises CONTEXT_BUDGET there without a manager code, so its
	// runtime message carries no code prefix.
	CodeProviderOverflow = "PROVIDER_OVERFLOW"
)

// A BudgetError is a context-budget failure. The run ends failed with code
// [RuntimeCode] and message [BudgetError.RuntimeMessage]; no model request
// is made for the round.
type BudgetError struct {
	Code    string
	Message string
}

// Error returns "CONTEXT_BUDGET: " and the runtime message.
func (e *BudgetError) Error() string { return RuntimeCode + ": " + e.RuntimeMessage() }

// RuntimeMessage returns the run's error message: "<code>: <message>" for
// the context manager's codes, the bare message for a provider overflow.
func (e *BudgetError) RuntimeMessage() string {
	if e.Code == CodeProviderOverflow {
		return e.Message
	}
	return e.Code + ": " + e.Message
}

// Is reports whether target is a *BudgetError with the same code.
func (e *BudgetError) Is(target error) bool {
	t, ok := target.(*BudgetError)
	return ok && t.Code == e.Code
}

func budgetError(code, format string, args ...any) *BudgetError {
	return &BudgetError{Code: code, Message: fmt.Sprintf(format, args...)}
}

// An InvalidCheckpointError reports a checkpoint the manager cannot use:
// one returned by the checkpoint provider during compaction, or a resume
// checkpoint. It is not a context-budget error; the runtime classifies it
// as any other non-runtime error (PROVIDER_ERROR with this message).
type InvalidCheckpointError struct {
	Resume bool
	Issues []checkpoint.Issue
}

// Error returns the original runtime's message.
func (e *InvalidCheckpointError) Error() string {
	parts := make([]string, len(e.Issues))
	for i, is := range e.Issues {
		if e.Resume {
			parts[i] = is.Path + ": " + is.Message
		} else {
			parts[i] = is.Message
		}
	}
	if e.Resume {
		return "Cannot resume invalid checkpoint: " + strings.Join(parts, " ")
	}
	return "Checkpoint provider returned invalid state: " + strings.Join(parts, " ")
}
