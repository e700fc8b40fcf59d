package workspace

import (
	"slices"
	"sort"
)

// Choices are decisions the contract leaves to a host, taken otherwise than
// the reference host takes them. The zero value is the reference host's;
// the permitted-variation hosts (package variants) set a field.
type Choices struct {
	// DetectMaxDepth is project detection's depth limit, declared as
	// scan.maxDepth; 0 means DetectMaxDepth.
	DetectMaxDepth int
	// ExtraExclusions are directory names that traversal (List, Glob,
	// Grep and project detection) skips besides TraversalExclusions.
	ExtraExclusions []string
	// PreconditionFirst checks a mutation's precondition against the
	// target's raw bytes before refusing a target that is not UTF-8, so
	// that a stale hash on such a file is PRECONDITION_FAILED rather than
	// INVALID_INPUT. The contract orders neither check first.
	PreconditionFirst bool
}

// WithChoices makes r take the choices c; it returns r.
func (r *Root) WithChoices(c Choices) *Root {
	r.choices = c
	return r
}

// detectMaxDepth is the depth limit of project detection.
func (r *Root) detectMaxDepth() int {
	if r.choices.DetectMaxDepth > 0 {
		return r.choices.DetectMaxDepth
	}
	return DetectMaxDepth
}

// excluded reports whether traversal skips directories called name.
func (r *Root) excluded(name string) bool {
	return ignoredTraversalDirs[name] || slices.Contains(r.choices.ExtraExclusions, name)
}

// exclusions returns the directory names traversal skips, sorted.
func (r *Root) exclusions() []string {
	out := append(TraversalExclusions(), r.choices.ExtraExclusions...)
	sort.Strings(out)
	return slices.Compact(out)
}
