package catalog

import "github.com/galaxy-stack/conform/core/port"

// AllowedInMode reports whether the task mode lets the model see d
// (CONTRACTS §3.1 with its audit correction): every tool in "auto",
// "scaffold" and "refactor"; in "review_only" the tools with mutability
// "read" plus research.search and research.fetch (external but not
// mutating); in "validate_only" the read tools plus project.validate. An
// unknown mode allows every tool, as in the original; request validation
// rejects unknown modes before a registry is built.
func AllowedInMode(d Descriptor, mode string) bool {
	switch mode {
	case port.ModeReviewOnly:
		return d.Mutability == MutabilityRead || d.ID == "research.search" || d.ID == "research.fetch"
	case port.ModeValidateOnly:
		return d.Mutability == MutabilityRead || d.ID == "project.validate"
	}
	return true
}
