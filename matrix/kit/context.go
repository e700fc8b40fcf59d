package kit

import (
	"context"
	"sync"

	. "github.com/onsi/ginkgo/v2"
)

// A TestContext is what an item's body is given, as csi-test's DescribeSanity
// gives its TestContext: the item being described, and through its Bench
// the host under test and the bound of the running spec. The body runs
// while the suite's tree is built; the specs it declares read the host and
// the spec's context from their TestContext when they run. Item code reads no
// package-level state: whatever it needs comes through here.
type TestContext struct {
	// ID is the item's number and Ref its printed reference ("13", "R2").
	ID  int
	Ref string
	// Dir is the item's scenario folder, relative to fixtures.Matrix()
	// ("13-symlink-traversal").
	Dir string

	bench *Bench
}

// Host returns the host under test, failing the spec when there is none.
func (c *TestContext) Host() *Host {
	GinkgoHelper()
	h := c.bench.host()
	if h == nil {
		Fail("no host under test: call matrix.Run or matrix.UseHost first")
	}
	return h
}

// Ctx returns the context of the running spec: bounded by the item
// timeout, and ended with the run.
func (c *TestContext) Ctx() context.Context { return c.bench.spec() }

// Bug records a mistake in the item's registration (a check naming a
// scenario that does not exist); the registry reports it with the others.
func (c *TestContext) Bug(err error) { c.bench.bug(err) }

// A Bench is what the runner sets up for the items of one certification:
// the host under test and the context of the running spec. The runner
// writes it; item bodies read it only through their TestContext.
type Bench struct {
	mu       sync.Mutex
	hostNow  *Host
	specNow  context.Context
	bugsSeen []error
	// listing makes item bodies declare their specs without adding them
	// to Ginkgo's tree (ListingBench); specs are the declarations seen.
	listing bool
	specs   []Spec
}

// ListingBench returns a bench on which item bodies only declare their
// specs: Specs then lists them with their sentences. Nothing runs.
func ListingBench() *Bench { return &Bench{listing: true} }

// Specs returns the specs declared on the bench, in declaration order.
func (b *Bench) Specs() []Spec {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]Spec(nil), b.specs...)
}

func (b *Bench) declare(s Spec) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.specs = append(b.specs, s)
}

// For returns the TestContext of one item on the bench.
func (b *Bench) For(id int, ref, dir string) *TestContext {
	return &TestContext{ID: id, Ref: ref, Dir: dir, bench: b}
}

// SetHost makes h the host under test.
func (b *Bench) SetHost(h *Host) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.hostNow = h
}

// SetSpec makes ctx the running spec's context.
func (b *Bench) SetSpec(ctx context.Context) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.specNow = ctx
}

// Bugs returns the registration mistakes item bodies reported.
func (b *Bench) Bugs() []error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]error(nil), b.bugsSeen...)
}

func (b *Bench) host() *Host {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.hostNow
}

func (b *Bench) spec() context.Context {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.specNow == nil {
		return context.Background()
	}
	return b.specNow
}

func (b *Bench) bug(err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.bugsSeen = append(b.bugsSeen, err)
}
