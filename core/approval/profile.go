package approval

import (
	"fmt"
	"slices"

	"github.com/galaxy-stack/conform/core/catalog"
)

// A Profile is an approval profile (CONTRACTS §10.1).
type Profile string

// The approval profiles, from the most to the least cautious.
const (
	Strict           Profile = "strict"
	Balanced         Profile = "balanced"
	TrustedWorkspace Profile = "trusted-workspace"
)

// DefaultProfile is the profile of the default settings.
const DefaultProfile = Balanced

// Profiles returns the approval profiles in the order of CONTRACTS §10.1.
func Profiles() []Profile { return []Profile{Strict, Balanced, TrustedWorkspace} }

// ParseProfile returns the profile named s, or an error naming s.
func ParseProfile(s string) (Profile, error) {
	p := Profile(s)
	if !slices.Contains(Profiles(), p) {
		return "", fmt.Errorf("approval: unknown approval profile %q", s)
	}
	return p, nil
}

var risks = []string{catalog.RiskLow, catalog.RiskMedium, catalog.RiskHigh, catalog.RiskCritical}

// RiskRank returns the rank of a tool risk, 0 for low to 3 for critical, or
// -1 for an unknown risk.
func RiskRank(risk string) int { return slices.Index(risks, risk) }

// Threshold returns the lowest risk for which profile p requires approval:
// medium for strict, high for balanced, critical for trusted-workspace; ""
// for an unknown profile.
func Threshold(p Profile) string {
	switch p {
	case Strict:
		return catalog.RiskMedium
	case Balanced:
		return catalog.RiskHigh
	case TrustedWorkspace:
		return catalog.RiskCritical
	}
	return ""
}

// Requires reports whether profile p requires approval for tool: always for
// mutability external_side_effect, otherwise when the tool's risk is at or
// above the profile's threshold. It fails closed: an unknown profile or
// risk requires approval.
func Requires(p Profile, tool catalog.Descriptor) bool {
	if tool.Mutability == catalog.MutabilityExternalSideEffect {
		return true
	}
	threshold, rank := RiskRank(Threshold(p)), RiskRank(tool.Risk)
	if threshold < 0 || rank < 0 {
		return true
	}
	return rank >= threshold
}
