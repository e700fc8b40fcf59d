package port

// Port error codes (CONTRACTS §2). A host port that fails reports one of
// these in Error.Code.
const (
	CodeAlreadyExists       = "ALREADY_EXISTS"
	CodeApprovalDenied      = "APPROVAL_DENIED"
	CodeApprovalUnavailable = "APPROVAL_UNAVAILABLE"
	CodeCanceled            = "CANCELED"
	CodeCapabilityMismatch  = "CAPABILITY_MISMATCH"
	CodeConflict            = "CONFLICT"
	CodeDeadlineExceeded    = "DEADLINE_EXCEEDED"
	CodeInternal            = "INTERNAL"
	CodeInvalidInput        = "INVALID_INPUT"
	CodeIOError             = "IO_ERROR"
	CodeLimitExceeded       = "LIMIT_EXCEEDED"
	CodeNotFound            = "NOT_FOUND"
	CodePermissionDenied    = "PERMISSION_DENIED"
	CodePreconditionFailed  = "PRECONDITION_FAILED"
	CodeProviderError       = "PROVIDER_ERROR"
	CodeUnavailable         = "UNAVAILABLE"
	CodeUnsupported         = "UNSUPPORTED"
)

// Error is the failure half of a host port result (CONTRACTS §2): a port
// operation that fails returns a *Error as its error value. Code is one of
// the Code constants; Details and SuggestedAction are optional.
type Error struct {
	Code            string `json:"code"`
	Message         string `json:"message"`
	Retryable       bool   `json:"retryable"`
	Details         any    `json:"details,omitempty"`
	SuggestedAction string `json:"suggestedAction,omitempty"`
}

// Error returns "CODE: message".
func (e *Error) Error() string { return e.Code + ": " + e.Message }
