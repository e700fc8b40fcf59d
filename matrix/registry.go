package matrix

import (
	"fmt"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/galaxy-stack/conform/matrix/kit"
	. "github.com/onsi/ginkgo/v2"
)

// Areas of the matrix.
var Areas = []string{"workspace", "commands", "model", "research", "prompt", "tools", "checkpoint", "runtime", "project-format"}

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
	// Source is where the item is registered, its metadata beside its
	// body: a repository path and line, "matrix/items/workspace.go:14".
	Source string `json:"-"`
	// Checks are the item's specs, each with the keys of the contract
	// sentences it enforces (see Sentences); empty for a planned item.
	Checks []kit.Spec `json:"checks,omitempty"`
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

// catalog is every item of the matrix, runnable or planned; registry the
// runnable ones. The area files of package matrix/items fill both when
// they are initialized.
var (
	catalog  = map[int]Item{}
	registry = map[int]Item{}
)

// registrationErrors collects mistakes in item registration; a test reports
// them all at once.
var registrationErrors []error

// DescribeItem registers item it and the body that declares its specs. Call
// it at package level, with the item's metadata beside its body:
//
//	var _ = matrix.DescribeItem(matrix.Item{ID: 1, Name: "read-only-inspect", …},
//		func(c *kit.TestContext) { c.Scenarios(nil) })
//
// The specs join Ginkgo's tree when the certification starts (see
// buildTree), in item order; the body is given the item's TestContext,
// through which its specs reach the host under test.
func DescribeItem(it Item, body func(*kit.TestContext)) bool {
	it.Runnable = true
	if !record(it, 2) {
		return false
	}
	registry[it.ID] = catalog[it.ID]
	bodies[it.ID] = body
	return true
}

// PlanItem records item it, whose specs are not written yet: `conform matrix`
// lists it as planned and `conform certify` does not run it.
func PlanItem(it Item) bool {
	it.Runnable = false
	return record(it, 2)
}

// record adds it to the catalog with the position of the call skip frames
// up, or records why it cannot.
func record(it Item, skip int) bool {
	if _, dup := catalog[it.ID]; dup {
		registrationErrors = append(registrationErrors, fmt.Errorf("matrix item %d registered twice", it.ID))
		return false
	}
	if !validArea(it.Area) {
		registrationErrors = append(registrationErrors, fmt.Errorf("matrix item %d has unknown area %q", it.ID, it.Area))
	}
	if _, file, line, ok := runtime.Caller(skip); ok {
		it.Source = fmt.Sprintf("%s:%d", repoPath(file), line)
	}
	catalog[it.ID] = it
	return true
}

// repoPath is file's path from the repository root, whatever the build
// (a checkout path, or a module path under -trimpath).
func repoPath(file string) string {
	file = filepath.ToSlash(file)
	if i := strings.LastIndex(file, "/matrix/"); i >= 0 {
		return file[i+1:]
	}
	return path.Base(file)
}

// bodies are the spec bodies of the registered items.
var bodies = map[int]func(*kit.TestContext){}

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
						body(bench.For(it.ID, it.Ref(), it.ScenarioDir()))
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
	out := make([]Item, 0, len(catalog))
	for _, it := range catalog {
		it.Checks = Checks(it.ID)
		out = append(out, it)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// RegistrationErrors returns the registration mistakes found, if any.
func RegistrationErrors() []error {
	checks()
	return append(append([]error(nil), registrationErrors...), bench.Bugs()...)
}

// ScenarioDir is the folder of the item's scenarios, relative to
// fixtures.Matrix() (fixtures/matrix in the repository): "NN-name" for a
// seed item, "R1-name" for an extension item.
func (it Item) ScenarioDir() string {
	if it.ID > ExtensionBase {
		return it.Ref() + "-" + it.Name
	}
	return fmt.Sprintf("%02d-%s", it.ID, it.Name)
}

// meta returns the catalog entry for id.
func meta(id int) (Item, bool) {
	it, ok := catalog[id]
	return it, ok
}
