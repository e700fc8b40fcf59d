package effects

import "github.com/galaxy-stack/conform/core/port"

// ApprovalRecord is the string the runtime records for a granted or denied
// approval (CONTRACTS §7.7 step 6): "<approval>:<requestId>:<toolName>:<toolCallId>",
// or "<approval>:<toolName>:<toolCallId>" without a request ID.
func ApprovalRecord(approval, requestID, toolName, toolCallID string) string {
	if requestID == "" {
		return approval + ":" + toolName + ":" + toolCallID
	}
	return approval + ":" + requestID + ":" + toolName + ":" + toolCallID
}

// NeedsWorkspaceFingerprint reports whether applying e needs a workspace
// fingerprint from the workspace verifier (CONTRACTS §7.7 step 5): it
// carries writes, validations or a diff review.
func NeedsWorkspaceFingerprint(e *port.Effects) bool {
	return e != nil && (len(e.Writes) > 0 || len(e.Validations) > 0 || e.DiffReview != nil)
}

// MissingVerifier is the error the runtime reports when
// NeedsWorkspaceFingerprint holds but the host offers no workspace verifier.
func MissingVerifier() error {
	return toolExecution("Workspace-changing or verification evidence requires a host workspace evidence verifier.")
}

// Run states a successful result's effects move the run to.
const (
	StateExecuting  = "executing"
	StateValidating = "validating"
	StateReviewing  = "reviewing"
	StatePlanning   = "planning"
)

// TargetState returns the run state the effects of a successful result move
// the run to (CONTRACTS §7.7 step 13): "executing" for writes, else
// "validating" for validations, else "reviewing" for a diff review, else
// "planning" for a plan; "" when none applies.
func TargetState(e *port.Effects) string {
	switch {
	case e == nil:
		return ""
	case len(e.Writes) > 0:
		return StateExecuting
	case len(e.Validations) > 0:
		return StateValidating
	case e.DiffReview != nil:
		return StateReviewing
	case e.Plan != nil:
		return StatePlanning
	}
	return ""
}
