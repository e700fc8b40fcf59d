package approval

import (
	"context"

	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/port"
)

// A Scope is how far a host decision reaches (CONTRACTS §10.3).
type Scope string

// The approval scopes.
const (
	ScopeOnce      Scope = "once"
	ScopeRun       Scope = "run"
	ScopeWorkspace Scope = "workspace"
)

// Request is what the policy sends an Approver (CONTRACTS §10.3). RequestID
// is "<runId>:<toolCallId>"; SuggestedScope is always "once".
type Request struct {
	ApprovalProfile Profile            `json:"approvalProfile"`
	ArgumentsValue  map[string]any     `json:"argumentsValue"`
	Reason          string             `json:"reason"`
	RequestID       string             `json:"requestId"`
	SuggestedScope  Scope              `json:"suggestedScope"`
	Tool            catalog.Descriptor `json:"tool"`
}

// HostDecision is an approver's answer.
type HostDecision struct {
	Approved  bool   `json:"approved"`
	DecidedAt string `json:"decidedAt"`
	Reason    string `json:"reason,omitempty"`
	Scope     Scope  `json:"scope"`
}

// An Approver is the host-side approval port. Approve must honour ctx: the
// policy cancels it when the wait ends for any reason (answer, timeout or
// run cancellation), so an expired prompt can be dismissed even if it would
// answer late; the run's own context is never canceled by an approval
// timeout. A failed, timed-out or canceled approval is a denial. An error
// that is a *PortError is a structured port failure; any other error (or a
// panic) is reported as APPROVAL_CALLBACK_THROWN.
type Approver interface {
	Approve(ctx context.Context, req Request, tc port.ToolContext) (HostDecision, error)
}

// ApproverFunc adapts a function to the Approver interface.
type ApproverFunc func(ctx context.Context, req Request, tc port.ToolContext) (HostDecision, error)

// Approve calls f.
func (f ApproverFunc) Approve(ctx context.Context, req Request, tc port.ToolContext) (HostDecision, error) {
	return f(ctx, req, tc)
}

var _ Approver = ApproverFunc(nil)

// A PortError is a structured port failure (CONTRACTS §2): a PortErrorCode
// such as APPROVAL_UNAVAILABLE, a message and whether a retry may help.
type PortError struct {
	Code      string `json:"code"`
	Message   string `json:"message"`
	Retryable bool   `json:"retryable"`
}

// Error returns "<code>: <message>".
func (e *PortError) Error() string { return e.Code + ": " + e.Message }
