package approval

// A Code is a policy decision code (CONTRACTS §10.2).
type Code string

// The decision codes. Only AutoApprove and ApprovedByHost allow the call.
const (
	ApprovedByHost          Code = "approved_by_host"
	AutoApprove             Code = "auto_approve"
	DenyApprovalError       Code = "deny_approval_error"
	DenyApprovalTimeout     Code = "deny_approval_timeout"
	DenyApprovalUnavailable Code = "deny_approval_unavailable"
	DenyCanceled            Code = "deny_canceled"
	DenyMissingPermission   Code = "deny_missing_permission"
	DenyRunMode             Code = "deny_run_mode"
	DenyTransport           Code = "deny_transport"
	DeniedByHost            Code = "denied_by_host"
)

// Codes returns every decision code in canonical order.
func Codes() []Code {
	return []Code{ApprovedByHost, AutoApprove, DenyApprovalError, DenyApprovalTimeout,
		DenyApprovalUnavailable, DenyCanceled, DenyMissingPermission, DenyRunMode,
		DenyTransport, DeniedByHost}
}

// CodeCallbackThrown is the internal code named in the reason when the
// approver fails with an error that is not a *PortError, or panics.
const CodeCallbackThrown = "APPROVAL_CALLBACK_THROWN"

// A Decision is the policy's answer for one call. RequestID is set once the
// policy has decided that approval is required; Scope only when the
// approver answered.
type Decision struct {
	Allowed   bool   `json:"allowed"`
	Code      Code   `json:"decision"`
	Reason    string `json:"reason"`
	RequestID string `json:"requestId,omitempty"`
	Scope     Scope  `json:"approvalScope,omitempty"`
}
