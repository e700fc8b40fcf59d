package run

import "fmt"

// Runtime error codes (RUNTIME §8.1).
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

// Tool-result error codes the runtime synthesizes for calls it does not
// dispatch (RUNTIME §8.2). They are observations, not run failures.
const (
	CodeBatchBlockedByApproval = "BATCH_BLOCKED_BY_APPROVAL"
)

// Provider error codes (RUNTIME §8.4).
const (
	ProviderAuthentication = "AUTHENTICATION"
	ProviderCanceled       = "CANCELED"
	ProviderMalformed      = "MALFORMED_STREAM"
	ProviderError          = "PROVIDER_ERROR"
)

// An Error is a runtime error: the reason a run ended failed, cancelled or
// paused (RUNTIME §8.1). Code is one of the Code constants and Message the
// original runtime's text.
type Error struct {
	Code      string `json:"code"`
	Message   string `json:"message"`
	Retryable bool   `json:"-"`
}

// Error returns "CODE: message".
func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Is reports whether target is an *Error with the same code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

func newError(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// A RequestError is a synchronous rejection of a run request by Start or
// Resume (RUNTIME §2, §4.3, §5): the request is invalid, its budget cannot be
// normalized, or a run with its ID is already active. Kind is the class the
// original runtime throws — "TypeError", "RangeError" or "Error" — and Message
// its exact text.
type RequestError struct {
	Kind    string
	Message string
}

// Error returns the message unchanged.
func (e *RequestError) Error() string { return e.Message }

func typeError(format string, args ...any) *RequestError {
	return &RequestError{Kind: "TypeError", Message: fmt.Sprintf(format, args...)}
}

func rangeError(format string, args ...any) *RequestError {
	return &RequestError{Kind: "RangeError", Message: fmt.Sprintf(format, args...)}
}
