package matrix

import (
	"fmt"
	"sort"

	. "github.com/onsi/ginkgo/v2"
)

// Areas of the matrix.
var Areas = []string{"workspace", "commands", "model", "research", "prompt", "tools", "checkpoint", "runtime"}

// An Item is one numbered guarantee of the host-conformance matrix.
type Item struct {
	ID        int    `json:"id"`
	Name      string `json:"name"`      // short stable test name, e.g. "read-only-inspect"
	Title     string `json:"title"`     // the matrix line
	Area      string `json:"area"`      // one of Areas
	Guarantee string `json:"guarantee"` // what a conformant host MUST do
}

var registry = map[int]Item{}

// registrationErrors collects mistakes in item registration; a test reports
// them all at once.
var registrationErrors []error

// describeItem registers item and its specs. Call it at package level:
// var _ = describeItem(Item{...}, func() { It(...) }).
func describeItem(it Item, body func()) bool {
	if _, dup := registry[it.ID]; dup {
		registrationErrors = append(registrationErrors, fmt.Errorf("matrix item %d registered twice", it.ID))
	}
	if !validArea(it.Area) {
		registrationErrors = append(registrationErrors, fmt.Errorf("matrix item %d has unknown area %q", it.ID, it.Area))
	}
	registry[it.ID] = it
	return Describe(fmt.Sprintf("[item %d] %s", it.ID, it.Title),
		Label(fmt.Sprintf("item:%d", it.ID), "area:"+it.Area), Offset(1), body)
}

func validArea(a string) bool {
	for _, x := range Areas {
		if x == a {
			return true
		}
	}
	return false
}

// Items returns the registered items sorted by ID.
func Items() []Item {
	out := make([]Item, 0, len(registry))
	for _, it := range registry {
		out = append(out, it)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// RegistrationErrors returns the registration mistakes found, if any.
func RegistrationErrors() []error { return registrationErrors }
