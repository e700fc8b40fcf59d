package effects

import (
	"slices"
	"strings"

	"github.com/galaxy-stack/conform/core/port"
)

// RequiredCapabilities returns the capabilities the present fields of e
// need (CONTRACTS §7.5), in canonical order: approval for approval or
// approvalRequestId; criterion_satisfy / criterion_waive, inspect,
// research, validate and write for non-empty lists; diff_review for
// diffReview; plan for plan or nextAction; state_version for stateVersion.
// A nil e needs nothing.
func RequiredCapabilities(e *port.Effects) []string {
	if e == nil {
		return nil
	}
	var out []string
	add := func(ok bool, c string) {
		if ok {
			out = append(out, c)
		}
	}
	add(e.Approval != "" || e.ApprovalRequestID != "", CapApproval)
	add(len(e.AcceptanceCriteriaSatisfied) > 0, CapCriterionSatisfy)
	add(len(e.AcceptanceCriteriaWaived) > 0, CapCriterionWaive)
	add(e.DiffReview != nil, CapDiffReview)
	add(len(e.InspectedPaths) > 0, CapInspect)
	add(e.NextAction != "" || e.Plan != nil, CapPlan)
	add(len(e.ResearchSources) > 0, CapResearch)
	add(e.StateVersion != "", CapStateVersion)
	add(len(e.Validations) > 0, CapValidate)
	add(len(e.Writes) > 0, CapWrite)
	return out
}

// CheckCapabilities checks the effects of r against allowed, the tool set's
// capabilities for r's canonical ID. A result without effects passes.
// Failure: "Tool <id> produced undeclared host effects: <a, b>."
func CheckCapabilities(r port.ToolResult, allowed []string) error {
	var denied []string
	for _, c := range RequiredCapabilities(r.Effects) {
		if !slices.Contains(allowed, c) {
			denied = append(denied, c)
		}
	}
	if len(denied) > 0 {
		return toolExecution("Tool " + r.CanonicalToolID + " produced undeclared host effects: " + strings.Join(denied, ", ") + ".")
	}
	return nil
}
