package effects

import (
	"fmt"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/port"
)

// Effect approval values (CONTRACTS §7.5).
const (
	ApprovalDenied      = "denied"
	ApprovalGranted     = "granted"
	ApprovalNotRequired = "not_required"
	ApprovalPending     = "pending"
)

// AuthorityHost is the only effectsAuthority value.
const AuthorityHost = "host"

// CheckEnvelope checks the shape of a result envelope (CONTRACTS §7.5, §7.7),
// in this order, each failure a TOOL_EXECUTION *Error:
//
//   - a blank canonicalToolId: "Tool adapter returned a malformed result envelope.";
//   - ok with an error, or not ok without one: "Tool result success and error fields are contradictory.";
//   - a failure whose error.status is outside 100..599: "Tool result HTTP status must be an integer between 100 and 599.";
//   - effects without effectsAuthority "host", or effectsAuthority without
//     effects: "Tool effects require an explicit host authority attestation.";
//   - a failure whose effects hold anything but approval "denied" and, with
//     it, a non-blank approvalRequestId: "Failed tool results may carry only
//     a host-attested approval denial and its correlated request id."
//
// The type checks of the original (fields that are not strings, effect lists
// that are not arrays, diffReview or plan that are not objects) cannot fail
// for a decoded port.ToolResult: decoding already rejects such JSON.
func CheckEnvelope(r port.ToolResult) error {
	if canon.IsBlank(r.CanonicalToolID) {
		return toolExecution("Tool adapter returned a malformed result envelope.")
	}
	if (r.OK && r.Error != nil) || (!r.OK && r.Error == nil) {
		return toolExecution("Tool result success and error fields are contradictory.")
	}
	if !r.OK && r.Error.Status != nil && (*r.Error.Status < 100 || *r.Error.Status > 599) {
		return toolExecution("Tool result HTTP status must be an integer between 100 and 599.")
	}
	if (r.Effects != nil && r.EffectsAuthority != AuthorityHost) || (r.Effects == nil && r.EffectsAuthority != "") {
		return toolExecution("Tool effects require an explicit host authority attestation.")
	}
	if r.Effects != nil && !r.OK && !failureEffectsAllowed(r.Effects) {
		return toolExecution("Failed tool results may carry only a host-attested approval denial and its correlated request id.")
	}
	return nil
}

func failureEffectsAllowed(e *port.Effects) bool {
	forbidden := e.AcceptanceCriteriaSatisfied != nil || e.AcceptanceCriteriaWaived != nil ||
		e.DiffReview != nil || e.InspectedPaths != nil || e.NextAction != "" || e.Plan != nil ||
		e.ResearchSources != nil || e.StateVersion != "" || e.Validations != nil || e.Writes != nil
	badApproval := e.Approval != "" && e.Approval != ApprovalDenied
	badRequest := e.ApprovalRequestID != "" && (e.Approval != ApprovalDenied || canon.IsBlank(e.ApprovalRequestID))
	return !forbidden && !badApproval && !badRequest
}

// CheckIdentity checks that the result's canonicalToolId equals expected,
// the canonical ID the tool set maps the called model name to ("" when the
// name is not mapped). Failure: "Tool result identity mismatch for
// <modelName>; expected <expected or <missing>>."
func CheckIdentity(r port.ToolResult, modelName, expected string) error {
	if expected == "" || r.CanonicalToolID != expected {
		if expected == "" {
			expected = "<missing>"
		}
		return toolExecution(fmt.Sprintf("Tool result identity mismatch for %s; expected %s.", modelName, expected))
	}
	return nil
}

// CheckMode rejects a successful host-attested result with writes in the
// read-only task modes review_only and validate_only: "<mode> tool result
// reported a workspace mutation."
func CheckMode(r port.ToolResult, mode string) error {
	if r.OK && r.EffectsAuthority == AuthorityHost && r.Effects != nil && len(r.Effects.Writes) > 0 &&
		(mode == port.ModeReviewOnly || mode == port.ModeValidateOnly) {
		return toolExecution(mode + " tool result reported a workspace mutation.")
	}
	return nil
}
