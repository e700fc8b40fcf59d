package mutants

import (
	"slices"
	"strings"

	"github.com/galaxy-stack/conform/hosts/reference"
)

// A Mutant is one named fault of the reference host.
type Mutant struct {
	// Name is the kebab-case name given to --mutant.
	Name string
	// Guarantee is the host guarantee the fault breaks, in the words of
	// S000 "Required host guarantees" (or the matrix item it names).
	Guarantee string
	// Description says in one line what the mutant does wrong.
	Description string
	// Faults switch on the mutant's one fault.
	Faults reference.Faults
}

// Options returns the reference host options that make the mutant.
func (m Mutant) Options() reference.Options {
	return reference.Options{Faults: m.Faults}
}

// All returns every mutant, sorted by name. The slice is a fresh copy.
func All() []Mutant {
	all := registry()
	slices.SortFunc(all, func(a, b Mutant) int { return strings.Compare(a.Name, b.Name) })
	return all
}

// Names returns the names of every mutant, sorted.
func Names() []string {
	all := All()
	names := make([]string, len(all))
	for i, m := range all {
		names[i] = m.Name
	}
	return names
}

// Lookup returns the mutant called name.
func Lookup(name string) (Mutant, bool) {
	for _, m := range registry() {
		if m.Name == name {
			return m, true
		}
	}
	return Mutant{}, false
}
