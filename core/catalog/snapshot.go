package catalog

import (
	"slices"

	"github.com/galaxy-stack/conform/core/port"
)

// Options selects the tools of a registry snapshot (CONTRACTS §8.1).
type Options struct {
	// Descriptors is the catalog to filter; nil means [Core].
	Descriptors []Descriptor
	// Checked, when set, is the catalog to filter instead of Descriptors
	// (nil descriptors again mean [Core]), whose registry document
	// [CheckCatalog] has already validated.
	Checked *CheckedCatalog
	// AvailableToolIDs are the canonical IDs the host adapter can serve.
	AvailableToolIDs []string
	// GrantedPermissions are the permissions the host grants.
	GrantedPermissions []string
	// Capabilities answer modalities.requiredModelCapabilities.
	Capabilities port.ModelCapabilities
	// Mode is the task mode; "" means "auto".
	Mode string
}

// A Diagnostic says whether one tool made it into a snapshot and why
// (CONTRACTS §8.1 step 4): reason "available" when included, else
// "run_mode_denied:<mode>", "missing_permission:<permission>",
// "adapter_unavailable" or "model_capability_mismatch:<name>". ViaFallback
// is never set by the core.
type Diagnostic struct {
	Included    bool   `json:"included"`
	Reason      string `json:"reason"`
	ToolID      string `json:"toolId"`
	ViaFallback string `json:"viaFallback,omitempty"`
}

// A Snapshot is the filtered catalog of one run (CONTRACTS §8.1). Hash is
// the deprecated alias of CatalogHash kept for traces. Descriptors are
// sorted by canonical ID; diagnostics cover every input descriptor in the
// same order.
type Snapshot struct {
	CatalogHash   string       `json:"catalogHash"`
	Descriptors   []Descriptor `json:"descriptors"`
	Diagnostics   []Diagnostic `json:"diagnostics"`
	Hash          string       `json:"hash"`
	Mode          string       `json:"mode"`
	SchemaVersion string       `json:"schemaVersion"`
}

// Clone returns a deep copy of s.
func (s Snapshot) Clone() Snapshot {
	out := s
	out.Descriptors = cloneAll(s.Descriptors)
	out.Diagnostics = slices.Clone(s.Diagnostics)
	return out
}

// NewSnapshot builds a registry snapshot (CONTRACTS §8.1): it copies and
// sorts the descriptors by canonical ID, validates the registry document
// ([CheckDocument], unless [CheckCatalog] did) and the descriptor
// assertions ([CheckDescriptors]),
// then keeps each tool whose first failing reason, in this order, does not
// exist: not allowed in the mode ([AllowedInMode]); its first permission,
// in its own order, not granted; its ID not available; its first required
// model capability not "supported" ("input.image" → Input.Image,
// "thinking" → Thinking, "tools" → ToolCalling, any other name never).
// CatalogHash is the registry hash of
// {"schemaVersion":"2.0.0","mode":mode,"tools":[included descriptors]}.
// The result does not depend on the order of any input list.
func NewSnapshot(opts Options) (Snapshot, error) {
	mode := opts.Mode
	if mode == "" {
		mode = port.ModeAuto
	}
	source := opts.Descriptors
	if opts.Checked != nil {
		source = opts.Checked.descriptors
	}
	var descriptors []Descriptor
	if source == nil {
		descriptors = Core()
	} else {
		descriptors = cloneAll(source)
	}
	sortByID(descriptors)
	if opts.Checked == nil || source == nil {
		if err := CheckDocument(descriptors); err != nil {
			return Snapshot{}, err
		}
	}
	if err := CheckDescriptors(descriptors); err != nil {
		return Snapshot{}, err
	}
	available := setOf(opts.AvailableToolIDs)
	granted := setOf(opts.GrantedPermissions)
	included := []Descriptor{}
	diagnostics := make([]Diagnostic, 0, len(descriptors))
	for _, d := range descriptors {
		reason := exclusion(d, mode, available, granted, opts.Capabilities)
		if reason != "" {
			diagnostics = append(diagnostics, Diagnostic{Included: false, Reason: reason, ToolID: d.ID})
			continue
		}
		included = append(included, d)
		diagnostics = append(diagnostics, Diagnostic{Included: true, Reason: "available", ToolID: d.ID})
	}
	catalogHash := hashOf(struct {
		SchemaVersion string       `json:"schemaVersion"`
		Mode          string       `json:"mode"`
		Tools         []Descriptor `json:"tools"`
	}{SchemaVersion, mode, included})
	return Snapshot{
		CatalogHash: catalogHash, Descriptors: included, Diagnostics: diagnostics,
		Hash: catalogHash, Mode: mode, SchemaVersion: SchemaVersion,
	}, nil
}

// exclusion returns the first reason d is left out, or "".
func exclusion(d Descriptor, mode string, available, granted map[string]bool, caps port.ModelCapabilities) string {
	if !AllowedInMode(d, mode) {
		return "run_mode_denied:" + mode
	}
	for _, p := range d.Permissions {
		if !granted[p] {
			return "missing_permission:" + p
		}
	}
	if !available[d.ID] {
		return "adapter_unavailable"
	}
	for _, c := range d.Modalities.RequiredModelCapabilities {
		if capabilitySupport(caps, c) != port.CapabilitySupported {
			return "model_capability_mismatch:" + c
		}
	}
	return ""
}

// capabilitySupport looks up the support of a required model capability
// (CONTRACTS §8.1 step 4.4, DECISIONS 43).
func capabilitySupport(caps port.ModelCapabilities, name string) string {
	switch name {
	case "input.image":
		return caps.Input.Image
	case "thinking":
		return caps.Thinking
	case "tools":
		return caps.ToolCalling
	}
	return port.CapabilityUnknown
}

func setOf(items []string) map[string]bool {
	m := make(map[string]bool, len(items))
	for _, s := range items {
		m[s] = true
	}
	return m
}
