package kit

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/matrix/lab"
	"github.com/galaxy-stack/conform/matrix/session"
	"github.com/gowebpki/jcs"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"pgregory.net/rapid"
)

// The case counts of item 39's properties: 1,000 in all, batched over a
// few host processes: a writer and a fresh reader per store property, one
// process per reachable tool set for the registry property.
const (
	storeCases    = 350
	tamperCases   = 550
	registryCases = 100
)

// propertyDirs makes the workspace and store of one property run, removed
// when the spec ends.
func propertyDirs() lab.Dirs {
	GinkgoHelper()
	parent, err := os.MkdirTemp(memoryTempDir(), "conform-item39-")
	Expect(err).NotTo(HaveOccurred(), "the harness cannot make the property run's directory")
	DeferCleanup(func() { _ = os.RemoveAll(parent) })
	d, err := lab.NewDirs(parent)
	Expect(err).NotTo(HaveOccurred(), "the harness cannot make the property run's workspace and store")
	return d
}

// memoryTempDir is where item 39 keeps its stores: /dev/shm when the
// system has that memory-backed directory, else the default temporary
// directory. The properties check what a store returns, not that it
// survives a crash (items 10, 12 and 40 do), and a thousand synced puts on
// a disk would not fit the item's time budget.
func memoryTempDir() string {
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if f, err := os.CreateTemp("/dev/shm", "conform-probe-"); err == nil {
			name := f.Name()
			_ = f.Close()
			_ = os.Remove(name)
			return "/dev/shm"
		}
	}
	return ""
}

// propertyHost starts one process of the host under test on d, closed
// when the spec ends.
func propertyHost(c *TestContext, d lab.Dirs) *session.Host {
	GinkgoHelper()
	t := c.Host()
	ctx, cancel := context.WithTimeout(c.Ctx(), freshHostTimeout)
	defer cancel()
	h, err := session.StartHost(ctx, session.HostConfig{Argv: t.Argv, Workspace: d.Workspace, StoreDir: d.Store, PassEnv: t.Env})
	Expect(err).NotTo(HaveOccurred(), "a process of the host under test does not start")
	DeferCleanup(func() { _ = h.Close() })
	return h
}

// needStore ends the spec as not applicable when the host offers no
// checkpoint store.
func needStore(c *TestContext) {
	GinkgoHelper()
	if !c.Host().Initialized().Capabilities.Store {
		NotApplicable("the host's initialize answer says it offers no checkpoint store (capabilities.store is false)")
	}
}

// withRunID draws a checkpoint of run runID.
func withRunID(t *rapid.T, runID, label string) genCheckpoint {
	return genCheckpointDoc(runID).Draw(t, label)
}

// recreate returns g's checkpoint for run runID with nextAction, created
// afresh by the core (a new content hash).
func recreate(t *rapid.T, g genCheckpoint, runID, nextAction string) genCheckpoint {
	p := g.cp.Clone().Payload
	p.RunID, p.NextAction = runID, nextAction
	cp, err := checkpoint.Create(p, g.cp.Reason, g.cp.CreatedAt)
	if err != nil {
		t.Fatalf("the core refuses the harness's checkpoint: %v", err)
	}
	data, err := checkpoint.Serialize(cp)
	if err != nil {
		t.Fatalf("the harness cannot serialize its checkpoint: %v", err)
	}
	return genCheckpoint{cp: cp, bytes: data, secrets: g.secrets}
}

// sameDocument reports whether got is the document want as given: equal
// canonical forms (RFC 8785), and every object's members in the same
// order. How the host escapes a character on the wire (\u2028 for U+2028)
// does not matter; values, member order and members do.
func sameDocument(got, want []byte) bool {
	canonical, err := jcs.Transform(got)
	if err != nil || !bytes.Equal(canonical, want) {
		return false
	}
	return slices.Equal(memberOrder(got), memberOrder(want))
}

// memberOrder lists the member names of every object of doc in the order
// the text gives them, depth first; nil when doc does not decode.
func memberOrder(doc []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(doc))
	var out []string
	if readMembers(dec, &out) != nil {
		return nil
	}
	return out
}

func readMembers(dec *json.Decoder, out *[]string) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return nil
	}
	for dec.More() {
		if d == '{' {
			key, err := dec.Token()
			if err != nil {
				return err
			}
			*out = append(*out, fmt.Sprint(key))
		}
		if err := readMembers(dec, out); err != nil {
			return err
		}
	}
	_, err = dec.Token() // the closing delimiter
	return err
}

// storeRoundTrip is the store property: what one process puts, a fresh
// process on the same store returns byte for byte (canonical: sorted
// members, RFC 8785 escapes), through store/get and store/list alike,
// verifying under the same content hash, with every credential redacted;
// and a modified copy put under another run never changes the first.
func storeRoundTrip(c *TestContext, writer, reader *session.Host) func(*rapid.T) {
	n := 0
	return func(t *rapid.T) {
		ctx := c.Ctx()
		n++
		runID := fmt.Sprintf("39-store-%d", n)
		g := withRunID(t, runID, "checkpoint")
		put := func(h *session.Host, run string, doc []byte) {
			if _, err := h.Client().StorePut(ctx, wire.StorePutParams{RunID: run, Kind: wire.KindCheckpoint, Document: doc}); err != nil {
				t.Fatalf("store/put of checkpoint %s failed: %v", run, err)
			}
		}
		get := func(run string, want []byte) {
			got, err := reader.Client().StoreGet(ctx, wire.StoreGetParams{RunID: run, Kind: wire.KindCheckpoint})
			if err != nil {
				t.Fatalf("store/get of %s through a fresh process failed: %v", run, err)
			}
			if !sameDocument(got, want) {
				t.Fatalf("store/get of %s through a fresh process returns other bytes than were put: a conformant store returns the canonical document as given (members sorted, RFC 8785 escapes) and shares nothing between documents; %s", run, jsonDiff(want, got))
			}
		}
		// A modified copy under another run, put before the first is read
		// back: the first document must not change (no aliasing between
		// stored documents).
		copyRun := runID + "-copy"
		other := recreate(t, g, copyRun, g.cp.NextAction+" (modified copy)")
		put(writer, runID, g.bytes)
		put(writer, copyRun, other.bytes)
		get(runID, g.bytes)
		entries, err := reader.Client().StoreList(ctx, wire.StoreListParams{RunID: runID, Kind: wire.KindCheckpoint})
		if err != nil {
			t.Fatalf("store/list of %s through a fresh process failed: %v", runID, err)
		}
		if len(entries) != 1 || !sameDocument(entries[0].Document, g.bytes) {
			t.Fatalf("store/list of %s disagrees with store/get: it lists %d entries; a conformant store lists the one document put, byte for byte", runID, len(entries))
		}
		back, err := checkpoint.Assert(entries[0].Document)
		if err != nil || back.ContentHash != g.cp.ContentHash {
			t.Fatalf("the checkpoint %s a fresh process returns no longer verifies under its content hash %s: %v", runID, g.cp.ContentHash, err)
		}
		for _, s := range g.secrets {
			if strings.Contains(string(entries[0].Document), s) {
				t.Fatalf("the stored checkpoint %s carries the credential %q that checkpoint creation redacted", runID, s)
			}
		}
	}
}

// tamperRejected is the tamper property: a checkpoint with one byte
// changed, put through the host's store and read back by a fresh process
// as the core's resume does (port.RunStore.LoadLatestCheckpoint, then the
// core's checkpoint verification), is rejected — the resume fails
// CHECKPOINT_INCOMPATIBLE before any model or tool work. A change that
// leaves no JSON object cannot travel through the store; the core must
// reject it all the same.
func tamperRejected(c *TestContext, writer, reader *session.Host) func(*rapid.T) {
	n := 0
	return func(t *rapid.T) {
		ctx := c.Ctx()
		n++
		runID := fmt.Sprintf("39-tamper-%d", n)
		g := withRunID(t, runID, "checkpoint")
		i := rapid.IntRange(0, len(g.bytes)-1).Draw(t, "offset")
		delta := byte(rapid.IntRange(1, 255).Draw(t, "delta"))
		tampered := bytes.Clone(g.bytes)
		tampered[i] += delta
		what := fmt.Sprintf("byte %d changed from %q to %q", i, g.bytes[i], tampered[i])
		var obj map[string]json.RawMessage
		if json.Unmarshal(tampered, &obj) != nil {
			if _, err := checkpoint.Assert(tampered); err == nil {
				t.Fatalf("the core's resume verification accepts a checkpoint with %s", what)
			}
			return
		}
		if _, err := writer.Client().StorePut(ctx, wire.StorePutParams{RunID: runID, Kind: wire.KindCheckpoint, Document: tampered}); err != nil {
			return // a store may refuse what it cannot keep; nothing resumes from it
		}
		raw, err := reader.RunStore().LoadLatestCheckpoint(ctx, runID)
		if err != nil {
			t.Fatalf("a fresh process cannot load the checkpoint of %s: %v", runID, err)
		}
		if _, err := checkpoint.Assert(raw); err == nil {
			t.Fatalf("a resume from the host's store accepts a checkpoint with %s: the store returned %s", what, cutLine(string(raw)))
		}
	}
}

// A toolSetStep is one active tool set the host reached by lazy
// activation: its model names, sorted, and its snapshot hash.
type toolSetStep struct {
	names []string
	hash  string
	defs  []string
}

func stepOf(ts port.ToolSet) toolSetStep {
	s := toolSetStep{hash: ts.SnapshotHash}
	for n := range ts.CanonicalToolIDs {
		s.names = append(s.names, n)
	}
	sort.Strings(s.names)
	for _, d := range ts.Definitions {
		s.defs = append(s.defs, d.Function.Name)
	}
	return s
}

// lazyCategories are the catalog categories of the tools the host backs
// but does not activate at first, sorted.
func lazyCategories(h *session.Host, first port.ToolSet) []string {
	active := map[string]bool{}
	for _, id := range first.CanonicalToolIDs {
		active[id] = true
	}
	seen := map[string]bool{}
	var out []string
	for _, d := range catalog.ForHost().Tools {
		if slices.Contains(h.Init.Tools, d.ID) && !active[d.ID] && !seen[string(d.Category)] {
			seen[string(d.Category)] = true
			out = append(out, string(d.Category))
		}
	}
	sort.Strings(out)
	return out
}

// activationChain activates the lazy categories in order through the
// host's catalog.search (search_tools) on a fresh process and returns the
// tool set after each step that changed it, the first set included.
func activationChain(c *TestContext, d lab.Dirs, categories []string) []toolSetStep {
	GinkgoHelper()
	ctx := c.Ctx()
	h := propertyHost(c, d)
	ts, err := h.Client().ToolSet(ctx)
	Expect(err).NotTo(HaveOccurred(), "tools/list fails")
	chain := []toolSetStep{stepOf(ts)}
	for i, cat := range categories {
		args, _ := json.Marshal(map[string]any{"category": cat})
		_, err := h.Client().Execute(ctx, wire.ExecuteParams{CallID: fmt.Sprintf("39-search-%d", i), ModelName: "search_tools", Arguments: args,
			IdempotencyKey: fmt.Sprintf("39-search-%d", i), TimeoutMs: 30000, Context: wire.RunContext{RunID: "39-registry", TaskID: "39-registry", Mode: "auto"}})
		Expect(err).NotTo(HaveOccurred(), "search_tools for category %q fails", cat)
		ts, err := h.Client().ToolSet(ctx)
		Expect(err).NotTo(HaveOccurred(), "tools/list fails after search_tools")
		if s := stepOf(ts); s.hash != chain[len(chain)-1].hash {
			chain = append(chain, s)
		}
	}
	return chain
}

// forge changes one hex digit of hash.
func forge(hash string, at int) string {
	b := []byte(hash)
	i := len(b) - 1 - at%16
	if b[i] == '0' {
		b[i] = '1'
	} else {
		b[i] = '0'
	}
	return string(b)
}

// restoreOnlyCorrect is the registry property: tools/restore of one
// reached tool set, its names in any order, is refused under a forged
// hash and under the hash of another set, and restores under its own hash
// with that hash and its definitions in canonical order. pool holds one
// fresh process per set of chain (a restore only ever adds tools, so one
// process serves every case of its set).
func restoreOnlyCorrect(c *TestContext, pool []*session.Host, chain []toolSetStep) func(*rapid.T) {
	return func(t *rapid.T) {
		ctx := c.Ctx()
		k := rapid.IntRange(0, len(chain)-1).Draw(t, "set")
		step, h := chain[k], pool[k]
		names := rapid.Permutation(step.names).Draw(t, "order")
		forged := forge(step.hash, rapid.IntRange(0, 15).Draw(t, "forged.digit"))
		if _, err := h.Client().RestoreToolSet(ctx, wire.RestoreParams{Names: names, SnapshotHash: forged}); err == nil {
			t.Fatalf("tools/restore of %v under the forged snapshot hash %s succeeds; a conformant host refuses a hash its active set does not have (CONFLICT)", names, forged)
		}
		if len(chain) > 1 {
			stale := chain[(k+1+rapid.IntRange(0, len(chain)-2).Draw(t, "stale"))%len(chain)].hash
			if _, err := h.Client().RestoreToolSet(ctx, wire.RestoreParams{Names: names, SnapshotHash: stale}); err == nil {
				t.Fatalf("tools/restore of %v under the stale snapshot hash %s of another tool set succeeds; a conformant host refuses it (CONFLICT)", names, stale)
			}
		}
		ts, err := h.Client().RestoreToolSet(ctx, wire.RestoreParams{Names: names, SnapshotHash: step.hash})
		if err != nil {
			t.Fatalf("tools/restore of %v under their own snapshot hash %s fails: %v", names, step.hash, err)
		}
		if got := stepOf(ts); got.hash != step.hash || !slices.Equal(got.defs, step.defs) {
			t.Fatalf("tools/restore of %v in this order gives snapshot hash %s and definitions %v; activated in catalog order they gave %s and %v: the active set must not depend on activation order", names, got.hash, got.defs, step.hash, step.defs)
		}
	}
}

// CheckpointProperties registers item 39's properties.
func CheckpointProperties(c *TestContext) {
	c.It("store round trip through a fresh process: canonical bytes, same hash, redacted, no aliasing", "S2 L39", func() {
		needStore(c)
		d := propertyDirs()
		writer, reader := propertyHost(c, d), propertyHost(c, d)
		property(c, "store round trip", storeCases, storeRoundTrip(c, writer, reader))
	})
	c.It("every single-byte tamper of a stored checkpoint is rejected on resume", "L11 L39", func() {
		needStore(c)
		d := propertyDirs()
		writer, reader := propertyHost(c, d), propertyHost(c, d)
		property(c, "tamper rejected", tamperCases, tamperRejected(c, writer, reader))
	})
	c.It("registry activation orders give one snapshot hash, and tools/restore accepts only it", "L39", func() {
		d := propertyDirs()
		probe := propertyHost(c, d)
		first, err := probe.Client().ToolSet(c.Ctx())
		Expect(err).NotTo(HaveOccurred(), "tools/list fails")
		cats := lazyCategories(probe, first)
		chain := activationChain(c, d, cats)
		reversed := slices.Clone(cats)
		slices.Reverse(reversed)
		back := activationChain(c, d, reversed)
		last, lastBack := chain[len(chain)-1], back[len(back)-1]
		if last.hash != lastBack.hash || !slices.Equal(last.defs, lastBack.defs) {
			AddReportEntry(ReproEntry, c.Host().CertifyRepro(c.Ref))
			Fail(fmt.Sprintf("activating the lazy categories %v through search_tools gives snapshot hash %s (definitions %v), in reverse order %s (definitions %v); a conformant host's active set and hash do not depend on activation order",
				cats, last.hash, last.defs, lastBack.hash, lastBack.defs))
		}
		pool := make([]*session.Host, len(chain))
		for i := range pool {
			pool[i] = propertyHost(c, d)
		}
		property(c, "registry restore", registryCases, restoreOnlyCorrect(c, pool, chain))
	})
}
