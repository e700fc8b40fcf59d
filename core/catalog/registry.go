package catalog

import (
	"fmt"
	"sync"

	"github.com/galaxy-stack/conform/core/port"
)

// A Registry is the turn-scoped tool registry of one run (CONTRACTS §8.3):
// a snapshot plus the set of active tools. The active set starts as the
// snapshot's enabledByDefault tools and grows through [Registry.Activate]
// and [Registry.Search]; it never shrinks. A Registry is safe for
// concurrent use.
type Registry struct {
	snapshot    Snapshot
	byID        map[string]int // index into snapshot.Descriptors
	byModelName map[string]int

	mu     sync.Mutex
	active map[string]bool
}

// ActiveSnapshot is the registry's active view (CONTRACTS §8.3).
type ActiveSnapshot struct {
	CatalogHash   string       `json:"catalogHash"`
	Descriptors   []Descriptor `json:"descriptors"`
	Hash          string       `json:"hash"`
	SchemaVersion string       `json:"schemaVersion"`
}

// BudgetError is returned by [NewRegistry] when the active definitions
// exceed [DefinitionBudget].
type BudgetError struct {
	Tokens, Budget int
}

// Error states the estimate and the budget.
func (e *BudgetError) Error() string {
	return fmt.Sprintf("active tool definitions exceed the budget: %d/%d tokens", e.Tokens, e.Budget)
}

// NewRegistry builds a registry from s (a deep copy is kept). The active
// set starts as every snapshot descriptor with enabledByDefault. It fails
// with a [*BudgetError] when the estimated tokens of the active definitions
// exceed [DefinitionBudget].
func NewRegistry(s Snapshot) (*Registry, error) {
	r := &Registry{
		snapshot:    s.Clone(),
		byID:        map[string]int{},
		byModelName: map[string]int{},
		active:      map[string]bool{},
	}
	sortByID(r.snapshot.Descriptors)
	for i, d := range r.snapshot.Descriptors {
		r.byID[d.ID] = i
		r.byModelName[d.ModelName] = i
		if d.EnabledByDefault {
			r.active[d.ID] = true
		}
	}
	if n := EstimateDefinitionTokens(r.definitionsLocked()); n > DefinitionBudget {
		return nil, &BudgetError{Tokens: n, Budget: DefinitionBudget}
	}
	return r, nil
}

// Snapshot returns a copy of the registry's snapshot.
func (r *Registry) Snapshot() Snapshot { return r.snapshot.Clone() }

// CatalogHash returns the snapshot's catalog hash, which activation never
// changes.
func (r *Registry) CatalogHash() string { return r.snapshot.CatalogHash }

// ActiveDescriptors returns copies of the active descriptors sorted by
// canonical ID.
func (r *Registry) ActiveDescriptors() []Descriptor {
	r.mu.Lock()
	defer r.mu.Unlock()
	return cloneAll(r.activeLocked())
}

// ActiveIDs returns the canonical IDs of the active tools, sorted.
func (r *Registry) ActiveIDs() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var ids []string
	for _, d := range r.activeLocked() {
		ids = append(ids, d.ID)
	}
	return ids
}

// Definitions returns the model-facing definitions of the active tools in
// canonical ID order (CONTRACTS §8.3).
func (r *Registry) Definitions() []port.ToolDefinition {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.definitionsLocked()
}

// ActiveHash returns the registry hash of {"catalogHash",
// "definitions", "schemaVersion"} over the active definitions (CONTRACTS
// §8.3). It changes when a lazy tool is activated.
func (r *Registry) ActiveHash() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.activeHashLocked()
}

// ActiveSnapshot returns the active view: catalog hash, active descriptors,
// active hash and schema version.
func (r *Registry) ActiveSnapshot() ActiveSnapshot {
	r.mu.Lock()
	defer r.mu.Unlock()
	return ActiveSnapshot{
		CatalogHash:   r.snapshot.CatalogHash,
		Descriptors:   cloneAll(r.activeLocked()),
		Hash:          r.activeHashLocked(),
		SchemaVersion: r.snapshot.SchemaVersion,
	}
}

// CanonicalToolIDs returns the routing of the active tools: model-facing
// name → canonical ID (CONTRACTS §13.9 canonicalToolIds).
func (r *Registry) CanonicalToolIDs() map[string]string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string]string{}
	for _, d := range r.activeLocked() {
		out[d.ModelName] = d.ID
	}
	return out
}

// ResolveModelName routes a model-facing name to its descriptor: only a
// tool that is in the snapshot and active resolves.
func (r *Registry) ResolveModelName(name string) (Descriptor, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	i, ok := r.byModelName[name]
	if !ok || !r.active[r.snapshot.Descriptors[i].ID] {
		return Descriptor{}, false
	}
	return r.snapshot.Descriptors[i].Clone(), true
}

// LookupModelName answers as [Registry.ResolveModelName] does without
// copying the descriptor: its schemas, permissions and modalities are the
// registry's own, shared by every caller, and must not be modified. It is
// for routing a call, which only reads the descriptor.
func (r *Registry) LookupModelName(name string) (Descriptor, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	i, ok := r.byModelName[name]
	if !ok || !r.active[r.snapshot.Descriptors[i].ID] {
		return Descriptor{}, false
	}
	return r.snapshot.Descriptors[i], true
}

// ResolveCanonicalID returns the snapshot descriptor with canonical ID id,
// active or not.
func (r *Registry) ResolveCanonicalID(id string) (Descriptor, bool) {
	i, ok := r.byID[id]
	if !ok {
		return Descriptor{}, false
	}
	return r.snapshot.Descriptors[i].Clone(), true
}

// Activate makes the snapshot tool id callable (CONTRACTS §8.3). It
// reports false when id is not in the snapshot or when activating it would
// exceed [DefinitionBudget] (the tool then stays inactive), and true when
// the tool is active afterwards, including when it already was.
func (r *Registry) Activate(id string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.activateLocked(id)
}

func (r *Registry) activateLocked(id string) bool {
	if _, ok := r.byID[id]; !ok {
		return false
	}
	if r.active[id] {
		return true
	}
	r.active[id] = true
	if EstimateDefinitionTokens(r.definitionsLocked()) > DefinitionBudget {
		delete(r.active, id)
		return false
	}
	return true
}

// Restore activates the tools with the given model-facing names, as a
// checkpointed tool set lists them, and checks that the resulting active
// hash equals snapshotHash. It fails naming the first unknown name, the
// first tool that cannot be activated, or the hash mismatch; tools
// activated before a failure stay active.
func (r *Registry) Restore(modelNames []string, snapshotHash string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, name := range modelNames {
		i, ok := r.byModelName[name]
		if !ok {
			return fmt.Errorf("restore tool set: tool %q is not in the snapshot", name)
		}
		if !r.activateLocked(r.snapshot.Descriptors[i].ID) {
			return fmt.Errorf("restore tool set: tool %q cannot be activated within the definition budget", name)
		}
	}
	if got := r.activeHashLocked(); got != snapshotHash {
		return fmt.Errorf("restore tool set: active hash %q does not match %q", got, snapshotHash)
	}
	return nil
}

func (r *Registry) activeLocked() []Descriptor {
	var out []Descriptor
	for _, d := range r.snapshot.Descriptors { // already in ID order
		if r.active[d.ID] {
			out = append(out, d)
		}
	}
	return out
}

func (r *Registry) definitionsLocked() []port.ToolDefinition {
	out := []port.ToolDefinition{}
	for _, d := range r.activeLocked() {
		out = append(out, ModelDefinition(d))
	}
	return out
}

func (r *Registry) activeHashLocked() string {
	return hashOf(struct {
		CatalogHash   string                `json:"catalogHash"`
		Definitions   []port.ToolDefinition `json:"definitions"`
		SchemaVersion string                `json:"schemaVersion"`
	}{r.snapshot.CatalogHash, r.definitionsLocked(), r.snapshot.SchemaVersion})
}
