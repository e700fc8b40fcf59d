package selftest

import (
	"slices"

	"github.com/galaxy-stack/conform/core/faults"
)

// coreFaults returns the named core faults with the items each names as
// able to catch it.
func coreFaults() []Fault {
	var out []Fault
	for _, f := range faults.All() {
		out = append(out, Fault{Name: f.Name, Kind: KindCore, Description: f.Description, Breaks: f.Rule, Targets: slices.Clone(f.Items)})
	}
	return out
}
