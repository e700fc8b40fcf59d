package matrix

import (
	"fmt"
	"sort"
	"sync"

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
	// Scope says whose rule the item certifies: ScopeHost, ScopeCore or
	// ScopeBoth. `conform selftest` shows that a host-scope item fails
	// against some mutant of the reference host and a core-scope item
	// against some named core fault.
	Scope string `json:"scope"`
	// Tools are the canonical IDs of the tools the item's scenarios call.
	Tools []string `json:"tools"`
	// Guarantees are the keys of the "Required host guarantees" sentences
	// the item checks (see Guarantees).
	Guarantees []string `json:"guarantees"`
	// Contract is the section of the host author's reference that states
	// what the item checks: a repository path and anchor, e.g.
	// "hosts/wire/tools/command.run.md#errors". A failed item's reason ends
	// with it.
	Contract string `json:"contract,omitempty"`
	// Runnable is true when the item's specs are registered.
	Runnable bool `json:"runnable"`
}

// Scopes of an item.
const (
	ScopeHost = "host"
	ScopeCore = "core"
	ScopeBoth = "host+core"
)

// HostScoped reports whether the item certifies a host duty.
func (it Item) HostScoped() bool { return it.Scope == ScopeHost || it.Scope == ScopeBoth }

// CoreScoped reports whether the item certifies a rule of the bundled core.
func (it Item) CoreScoped() bool { return it.Scope == ScopeCore || it.Scope == ScopeBoth }

var registry = map[int]Item{}

// registrationErrors collects mistakes in item registration; a test reports
// them all at once.
var registrationErrors []error

// describeItem registers the specs of item id. Call it at package level:
// var _ = describeItem(1, func(c *TestContext) { c.scenarios(nil) }). The
// specs join Ginkgo's tree when the certification starts (see buildTree),
// in item order; the body is given the item's Context, through which its
// specs reach the host under test.
func describeItem(id int, body func(*TestContext)) bool {
	it, ok := meta(id)
	if !ok {
		registrationErrors = append(registrationErrors, fmt.Errorf("matrix item %d is not in the item catalog", id))
		it = Item{ID: id, Area: "runtime", Title: fmt.Sprintf("item %d", id)}
	}
	if _, dup := registry[id]; dup {
		registrationErrors = append(registrationErrors, fmt.Errorf("matrix item %d registered twice", id))
	}
	if !validArea(it.Area) {
		registrationErrors = append(registrationErrors, fmt.Errorf("matrix item %d has unknown area %q", id, it.Area))
	}
	it.Runnable = true
	registry[id] = it
	bodies[id] = body
	return true
}

// bodies are the spec bodies of the registered items.
var bodies = map[int]func(*TestContext){}

var treeOnce sync.Once

// buildTree adds every registered item to Ginkgo's tree, one container per
// item in ID order, so that certify prints and runs the items in order.
// It must run before RunSpecs; Run and UseHost call it.
func buildTree() {
	treeOnce.Do(func() {
		ids := make([]int, 0, len(bodies))
		for id := range bodies {
			ids = append(ids, id)
		}
		sort.Ints(ids)
		// Ordered keeps ID order whatever Ginkgo's randomization;
		// ContinueOnFailure keeps one failed item from skipping the rest.
		Describe("host-conformance matrix", Ordered, ContinueOnFailure, func() {
			for _, id := range ids {
				it, body := registry[id], bodies[id]
				Describe(fmt.Sprintf("[item %s] %s", it.Ref(), it.Title),
					Label(fmt.Sprintf("item:%d", it.ID), "area:"+it.Area), func() {
						body(bench.For(it.ID, it.Ref(), scenarioDir(it)))
					})
			}
		})
	})
}

func validArea(a string) bool {
	for _, x := range Areas {
		if x == a {
			return true
		}
	}
	return false
}

// Items returns every item of the matrix sorted by ID, runnable or not.
func Items() []Item {
	out := make([]Item, 0, len(itemCatalog))
	for _, it := range itemCatalog {
		if r, ok := registry[it.ID]; ok {
			it = r
		}
		out = append(out, it)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// RegistrationErrors returns the registration mistakes found, if any.
func RegistrationErrors() []error {
	return append(append([]error(nil), registrationErrors...), bench.Bugs()...)
}
