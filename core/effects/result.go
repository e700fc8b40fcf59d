package effects

import (
	"slices"
	"strings"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/port"
)

// Expect is what the runtime knows about a call when its result arrives.
type Expect struct {
	// ModelName is the model-facing name the model called.
	ModelName string
	// CanonicalToolID is the ID the tool set maps ModelName to; "" when the
	// name is not mapped.
	CanonicalToolID string
	// Mode is the run's task mode.
	Mode string
	// Capabilities are the tool set's effect capabilities for the result's
	// canonical ID.
	Capabilities []string
	// KnownCriteria are the run's acceptance criterion IDs.
	KnownCriteria []string
	// PendingApprovals are the request IDs of approvals the run is waiting
	// for.
	PendingApprovals []string
}

// CheckResult runs every stateless check the runtime applies to a host
// result before it applies its effects (CONTRACTS §7.7), in the original
// order, and returns the first failure, a TOOL_EXECUTION *Error:
//
//  1. CheckEnvelope;
//  2. CheckIdentity against x.CanonicalToolID;
//  3. CheckMode;
//  4. for host-attested effects, CheckCapabilities against x.Capabilities;
//  5. a successful result with approval "pending": CheckPending, and its
//     request ID must not be pending already ("Approval request <id> is
//     already pending."); nothing else is checked, since the runtime applies
//     nothing else of it;
//  6. a failed result passes here (the envelope already limited it to a
//     denial);
//  7. while approvals are pending, a success must resolve the only pending
//     request (approval "granted" or "denied" with its ID): "Success effects
//     are blocked while an approval remains unresolved.";
//  8. CheckContent with x.KnownCriteria.
func CheckResult(r port.ToolResult, x Expect) error {
	if err := CheckEnvelope(r); err != nil {
		return err
	}
	if err := CheckIdentity(r, x.ModelName, x.CanonicalToolID); err != nil {
		return err
	}
	if err := CheckMode(r, x.Mode); err != nil {
		return err
	}
	e := r.Effects
	if e == nil || r.EffectsAuthority != AuthorityHost {
		return nil
	}
	if err := CheckCapabilities(r, x.Capabilities); err != nil {
		return err
	}
	if e.Approval == ApprovalPending {
		if !r.OK {
			return nil
		}
		if err := CheckPending(r); err != nil {
			return err
		}
		if slices.Contains(x.PendingApprovals, e.ApprovalRequestID) {
			return toolExecution("Approval request " + e.ApprovalRequestID + " is already pending.")
		}
		return nil
	}
	if !r.OK {
		return nil
	}
	if len(x.PendingApprovals) > 0 {
		resolves := ""
		if e.Approval == ApprovalGranted || e.Approval == ApprovalDenied {
			resolves = e.ApprovalRequestID
		}
		for _, id := range x.PendingApprovals {
			if id != resolves {
				return toolExecution("Success effects are blocked while an approval remains unresolved.")
			}
		}
	}
	return CheckContent(e, x.KnownCriteria)
}

// CheckPending checks a successful result whose effects report approval
// "pending": it needs a non-blank approvalRequestId ("Pending approval
// effect is missing approvalRequestId.") and may not carry writes,
// validations, a diff review or criteria ("A pending approval result cannot
// include success effects."). Its other effects are ignored by the runtime.
// Any other result passes.
func CheckPending(r port.ToolResult) error {
	e := r.Effects
	if e == nil || e.Approval != ApprovalPending || !r.OK {
		return nil
	}
	if canon.IsBlank(e.ApprovalRequestID) {
		return toolExecution("Pending approval effect is missing approvalRequestId.")
	}
	if len(e.Writes) > 0 || len(e.Validations) > 0 || e.DiffReview != nil ||
		len(e.AcceptanceCriteriaSatisfied) > 0 || len(e.AcceptanceCriteriaWaived) > 0 {
		return toolExecution("A pending approval result cannot include success effects.")
	}
	return nil
}

// CheckDispatch refuses to dispatch a tool call while any approval is
// pending: "No tool call may execute while an approval request is
// unresolved." (CONTRACTS §7.7 step 0). Later calls of the same batch are
// answered with a synthetic BATCH_BLOCKED_BY_APPROVAL failure instead.
func CheckDispatch(pendingApprovals int) error {
	if pendingApprovals > 0 {
		return toolExecution("No tool call may execute while an approval request is unresolved.")
	}
	return nil
}

// Observation kinds of a tool result.
const (
	ObservationDiff     = "diff"
	ObservationFile     = "file"
	ObservationResearch = "research"
	ObservationTool     = "tool"
)

// ObservationKind classifies a result for the context manager and the
// tool_result trace: "diff" when host-attested effects carry a diff review,
// "file" when the canonical ID starts with "workspace.read", "research" when
// it starts with "research.", otherwise "tool".
func ObservationKind(r port.ToolResult) string {
	switch {
	case r.EffectsAuthority == AuthorityHost && r.Effects != nil && r.Effects.DiffReview != nil:
		return ObservationDiff
	case strings.HasPrefix(r.CanonicalToolID, "workspace.read"):
		return ObservationFile
	case strings.HasPrefix(r.CanonicalToolID, "research."):
		return ObservationResearch
	}
	return ObservationTool
}
