package selftest

import (
	"slices"

	"github.com/galaxy-stack/conform/core/faults"
	"github.com/galaxy-stack/conform/matrix"
)

// coreFaults returns the named core faults with the items each names as
// able to catch it. A core fault breaks a rule of the runtime the matrix
// lines of those items state, so the sentences it breaks are those lines.
func coreFaults() []Fault {
	var out []Fault
	for _, f := range faults.All() {
		keys := make([]string, len(f.Items))
		for i, id := range f.Items {
			keys[i] = matrix.LineKey(id)
		}
		fault := Fault{Name: f.Name, Kind: KindCore, Description: f.Description, Breaks: f.Rule, Sentences: keys, Targets: slices.Clone(f.Items)}
		if why := faults.HostUnreachable(f.Name); why != "" {
			// No host scenario reaches it: listed untargeted, with why.
			fault.Targets, fault.Unreachable = []int{}, why
		}
		out = append(out, fault)
	}
	return out
}
