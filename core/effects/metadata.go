package effects

import (
	"fmt"
	"slices"

	"github.com/galaxy-stack/conform/core/canon"
)

// Metadata is the effect part of a host tool set (CONTRACTS §7.4):
// CanonicalToolIDs maps the model name of every active tool to its canonical
// ID; EffectCapabilities is always the complete 21-tool core profile, so its
// hash does not change when a lazy tool is activated.
type Metadata struct {
	CanonicalToolIDs   map[string]string   `json:"canonicalToolIds"`
	EffectCapabilities map[string][]string `json:"effectCapabilities"`
}

// NewMetadata builds the Metadata of the active core tools. Tools are taken
// in canonical ID order; the first of these failures is returned:
// "No core effect profile exists for <id>.", "Duplicate active canonical
// tool ID: <id>.", "Duplicate active model-facing tool name: <name>."
func NewMetadata(active []ToolRef) (Metadata, error) {
	sorted := slices.Clone(active)
	slices.SortStableFunc(sorted, func(a, b ToolRef) int { return canon.CompareText(a.ID, b.ID) })
	ids := make(map[string]string, len(sorted))
	seen := map[string]bool{}
	for _, t := range sorted {
		if !IsCoreTool(t.ID) {
			return Metadata{}, fmt.Errorf("No core effect profile exists for %s.", t.ID)
		}
		if seen[t.ID] {
			return Metadata{}, fmt.Errorf("Duplicate active canonical tool ID: %s.", t.ID)
		}
		if _, dup := ids[t.ModelName]; dup {
			return Metadata{}, fmt.Errorf("Duplicate active model-facing tool name: %s.", t.ModelName)
		}
		seen[t.ID] = true
		ids[t.ModelName] = t.ID
	}
	return Metadata{CanonicalToolIDs: ids, EffectCapabilities: CoreProfile()}, nil
}
