package effects

import "slices"

// An Entry is one tool's line of the core effect profile (CONTRACTS §7.3):
// its canonical ID, the capabilities its host may attest (sorted,
// duplicate-free) and the evidence boundary the profile documents for it.
type Entry struct {
	ID           string   `json:"id"`
	Capabilities []string `json:"capabilities"`
	Boundary     string   `json:"boundary"`
}

// coreProfile is the profile in catalog (canonical ID) order. It is never
// modified; accessors return copies.
var coreProfile = []Entry{
	{"artifact.create", []string{CapApproval, CapStateVersion}, "artifact-store state only, never a workspace write"},
	{"artifact.list", []string{CapApproval}, "observation only"},
	{"artifact.read", []string{CapApproval}, "observation only"},
	{"catalog.search", []string{CapApproval, CapStateVersion}, "active registry version"},
	{"command.run", []string{CapApproval, CapStateVersion, CapWrite}, "write needs an independent changed-file inventory with hashes"},
	{"command.session", []string{CapApproval, CapStateVersion, CapWrite}, "same write rule; state may be session progress"},
	{"git.exec", []string{CapApproval, CapDiffReview, CapInspect}, "diff_review only for a complete, untruncated diff action"},
	{"perception.analyze", []string{CapApproval}, "artifact observations are not workspace inspection"},
	{"preview.manage", []string{CapApproval, CapStateVersion}, "preview-session state only"},
	{"project.detect", []string{CapApproval, CapInspect}, "inspected project root"},
	{"project.validate", []string{CapApproval, CapStateVersion, CapValidate, CapWrite}, "scripts need approval/containment; generated writes need typed inventory"},
	{"research.fetch", []string{CapApproval, CapResearch}, "host records bounded, untrusted source evidence"},
	{"research.search", []string{CapApproval, CapResearch}, "same, for discovery"},
	{"task.checkpoint", []string{CapApproval, CapPlan, CapStateVersion}, "bounded durable task state"},
	{"user.ask", []string{CapApproval}, "correlated answers; no implicit criterion waiver"},
	{"workspace.edit", []string{CapApproval, CapStateVersion, CapWrite}, "exact edit plus before/after hashes"},
	{"workspace.glob", []string{CapApproval, CapInspect}, "inspected scope/path"},
	{"workspace.grep", []string{CapApproval, CapInspect}, "inspected matched paths"},
	{"workspace.list", []string{CapApproval, CapInspect}, "inspected directory scope"},
	{"workspace.read", []string{CapApproval, CapInspect}, "inspected bounded file/range"},
	{"workspace.write", []string{CapApproval, CapStateVersion, CapWrite}, "atomic create/replace plus hashes"},
}

// CoreEntries returns the core effect profile in canonical ID order. The
// caller may modify the result.
func CoreEntries() []Entry { return cloneEntries(coreProfile) }

// cloneEntries returns a copy of profile that shares no memory with it.
func cloneEntries(profile []Entry) []Entry {
	out := make([]Entry, len(profile))
	for i, e := range profile {
		out[i] = Entry{ID: e.ID, Capabilities: slices.Clone(e.Capabilities), Boundary: e.Boundary}
	}
	return out
}

// capabilitiesOf returns a copy of the allowed capabilities of id in
// profile, or false when profile has no entry for id.
func capabilitiesOf(profile []Entry, id string) ([]string, bool) {
	for _, e := range profile {
		if e.ID == id {
			return slices.Clone(e.Capabilities), true
		}
	}
	return nil, false
}

// CoreProfile returns the core effect profile as a map from canonical ID to
// its allowed capabilities: exactly the 21 catalog IDs, each value sorted and
// duplicate-free. Every call returns a fresh map with equal contents, so a
// hash over it is stable however many tools are active.
func CoreProfile() map[string][]string {
	out := make(map[string][]string, len(coreProfile))
	for _, e := range coreProfile {
		out[e.ID] = slices.Clone(e.Capabilities)
	}
	return out
}

// CoreCapabilities returns the allowed capabilities of the core tool id, or
// false when id is not a core tool (an extension or MCP tool).
func CoreCapabilities(id string) ([]string, bool) { return capabilitiesOf(coreProfile, id) }

// IsCoreTool reports whether id is one of the 21 core canonical IDs.
func IsCoreTool(id string) bool {
	_, ok := CoreCapabilities(id)
	return ok
}

// CoreToolIDs returns the 21 core canonical IDs in canonical order.
func CoreToolIDs() []string {
	out := make([]string, len(coreProfile))
	for i, e := range coreProfile {
		out[i] = e.ID
	}
	return out
}

// WriteCapableTools returns the core tools whose profile allows the write
// capability, in canonical order.
func WriteCapableTools() []string {
	var out []string
	for _, e := range coreProfile {
		if slices.Contains(e.Capabilities, CapWrite) {
			out = append(out, e.ID)
		}
	}
	return out
}
