package catalog

import (
	"fmt"
	"slices"
	"sync"

	"github.com/galaxy-stack/conform/core/canon"
)

// core returns the built catalog, sorted by canonical ID. It is built and
// checked against the registry schema once, on first use rather than at
// package initialisation (a process that never reads the catalog, such as
// `conform version`, does not pay for it), and never modified; accessors
// return deep copies.
var core = sync.OnceValue(mustBuild)

func mustBuild() []Descriptor {
	ds := coreSpecs()
	for i := range ds {
		ds[i] = WithDefaults(ds[i])
	}
	sortByID(ds)
	if err := CheckDocument(ds); err != nil {
		panic(fmt.Sprintf("catalog: core catalog: %v", err))
	}
	if err := CheckDescriptors(ds); err != nil {
		panic(fmt.Sprintf("catalog: core catalog: %v", err))
	}
	return ds
}

func sortByID(ds []Descriptor) {
	slices.SortStableFunc(ds, func(a, b Descriptor) int { return canon.CompareText(a.ID, b.ID) })
}

// Core returns the 21-tool core catalog sorted by canonical ID (CONTRACTS
// §6). Each call returns deep copies: the caller may modify them freely
// without affecting the catalog.
func Core() []Descriptor {
	return cloneAll(core())
}

// ByID returns a copy of the core descriptor with the canonical ID id.
func ByID(id string) (Descriptor, bool) {
	for _, d := range core() {
		if d.ID == id {
			return d.Clone(), true
		}
	}
	return Descriptor{}, false
}

// ByModelName returns a copy of the core descriptor with the model-facing
// name name.
func ByModelName(name string) (Descriptor, bool) {
	for _, d := range core() {
		if d.ModelName == name {
			return d.Clone(), true
		}
	}
	return Descriptor{}, false
}

// IDs returns the canonical IDs of the core catalog in catalog order.
func IDs() []string {
	out := make([]string, len(core()))
	for i, d := range core() {
		out[i] = d.ID
	}
	return out
}

func cloneAll(ds []Descriptor) []Descriptor {
	out := make([]Descriptor, len(ds))
	for i, d := range ds {
		out[i] = d.Clone()
	}
	return out
}
