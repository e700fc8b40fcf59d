package effects

import "slices"

// Effect capability names (CONTRACTS §7.2). A tool set declares, per
// canonical ID, which of these its host may attest.
const (
	CapApproval         = "approval"
	CapCriterionSatisfy = "criterion_satisfy"
	CapCriterionWaive   = "criterion_waive"
	CapDiffReview       = "diff_review"
	CapInspect          = "inspect"
	CapPlan             = "plan"
	CapResearch         = "research"
	CapStateVersion     = "state_version"
	CapValidate         = "validate"
	CapWrite            = "write"
)

// ProfileVersion is the version of the core tool effect profile.
const ProfileVersion = "1.1.0"

var capabilities = []string{
	CapApproval, CapCriterionSatisfy, CapCriterionWaive, CapDiffReview, CapInspect,
	CapPlan, CapResearch, CapStateVersion, CapValidate, CapWrite,
}

// Capabilities returns every known capability name in canonical order. The
// caller may modify the returned slice.
func Capabilities() []string { return slices.Clone(capabilities) }

// IsCapability reports whether name is a known capability name.
func IsCapability(name string) bool { return slices.Contains(capabilities, name) }
