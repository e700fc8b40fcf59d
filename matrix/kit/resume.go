package kit

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/jsonrpc"
	"github.com/galaxy-stack/conform/matrix/session"
	"github.com/gowebpki/jcs"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// ExecuteParams returns the tool/execute request of the call callID as
// the harness sent it the first time.
func (o *Outcome) ExecuteParams(callID string) wire.ExecuteParams {
	GinkgoHelper()
	for _, c := range o.Executes() {
		if c.CallID == callID {
			return c.ExecuteParams
		}
	}
	Fail(o.File + ": the harness sent no tool/execute with callId " + callID)
	return wire.ExecuteParams{}
}

// ExecutedOnce asserts that the call callID reached a host exactly once,
// in host process process: a completed call must never run again after a
// resume.
func (o *Outcome) ExecutedOnce(callID string, process int) {
	GinkgoHelper()
	var in []int
	for _, c := range o.Executes() {
		if c.CallID == callID {
			in = append(in, c.Process)
		}
	}
	Expect(in).To(Equal([]int{process}), "%s: %s reached host processes %v; it must run exactly once, in process %d, and never again after the resume", o.File, callID, in, process)
}

// NoExecuteIn asserts that host process process received no tool/execute.
func (o *Outcome) NoExecuteIn(process int) {
	GinkgoHelper()
	var got []string
	for _, c := range o.Executes() {
		if c.Process == process {
			got = append(got, c.CallID)
		}
	}
	Expect(got).To(BeEmpty(), "%s: the resumed host process %d received tool/execute for %v; after this resume no call may be dispatched", o.File, process, got)
}

// FirstResumedRequestToolFree asserts that the first model request of the
// second execution offered no tools: a verified resume whose evidence is
// complete goes straight to finalization.
func (o *Outcome) FirstResumedRequestToolFree() {
	GinkgoHelper()
	first := ""
	n := 0
	for _, e := range o.Transcript {
		if e.Type != "model" || e.Detail != "started" {
			continue
		}
		if first == "" {
			first = e.Execution
		}
		if e.Execution == first {
			n++
		}
	}
	Expect(len(o.ModelRequests)).To(BeNumerically(">", n), "%s: the resumed execution asked the model nothing", o.File)
	r := o.ModelRequests[n]
	Expect(r.ToolFree).To(BeTrue(), "%s: the first model request after the verified resume (request %d) offered tools %v; with current validation and diff evidence it must be tool-free", o.File, r.Request, r.ToolNames)
}

// RestoredUnderCheckpointHash asserts that the core restored the tool set
// of host process process with tools/restore under hash, the checkpoint's
// registry snapshot hash, and that the host accepted it.
func (o *Outcome) RestoredUnderCheckpointHash(process int, hash string) {
	GinkgoHelper()
	asked := false
	for _, m := range o.Wire {
		var msg jsonrpc.Envelope
		if m.Process != process || !m.Sent || json.Unmarshal(m.Line, &msg) != nil || msg.Method != wire.MethodToolsRestore {
			continue
		}
		var p wire.RestoreParams
		Expect(json.Unmarshal(msg.Params, &p)).To(Succeed(), "%s: the harness cannot decode the tools/restore it sent: %s", o.File, msg.Params)
		Expect(p.SnapshotHash).To(Equal(hash), "%s: the resume restored the tool set under %s, not the checkpoint's registry snapshot hash %s", o.File, p.SnapshotHash, hash)
		asked = true
	}
	Expect(asked).To(BeTrue(), "%s: the resumed host process %d was never asked to restore the checkpointed tool set", o.File, process)
}

// RestoreOnlyCorrect asks fresh host processes on the run's store to
// restore the checkpointed tool set (names, hash): under a forged hash and
// under the hash of another tool set the host must refuse, under the
// checkpoint's hash, its names in reverse order, it must restore exactly
// that hash (catches restore-ignores-snapshot-hash).
func (o *Outcome) RestoreOnlyCorrect(names []string, hash string) {
	GinkgoHelper()
	ctx, cancel := context.WithTimeout(o.Ctx(), freshHostTimeout)
	defer cancel()
	restore := func(h *session.Host, names []string, hash string) error {
		_, err := h.Client().RestoreToolSet(ctx, wire.RestoreParams{Names: names, SnapshotHash: hash})
		return err
	}
	reversed := slices.Clone(names)
	slices.Reverse(reversed)
	stale := o.staleHash(ctx, hash)
	h := o.FreshHost(nil)
	forged := forge(hash, 0)
	Expect(restore(h, reversed, forged)).NotTo(Succeed(), "%s: tools/restore under the forged snapshot hash %s succeeds; a conformant host refuses it (CONFLICT \"Checkpoint tool snapshot mismatch\")", o.File, forged)
	if stale != "" {
		Expect(restore(h, reversed, stale)).NotTo(Succeed(), "%s: tools/restore under the stale snapshot hash %s of another tool set succeeds; a conformant host refuses it", o.File, stale)
	}
	ts, err := h.Client().RestoreToolSet(ctx, wire.RestoreParams{Names: reversed, SnapshotHash: hash})
	Expect(err).NotTo(HaveOccurred(), "%s: tools/restore of the checkpointed tool set under its own snapshot hash fails on a fresh host", o.File)
	Expect(ts.SnapshotHash).To(Equal(hash), "%s: tools/restore answers snapshot hash %s for the checkpointed set %s", o.File, ts.SnapshotHash, hash)
}

// staleHash returns the snapshot hash of another tool set the host can
// reach, learned on a fresh process by activating one lazy category
// through search_tools; "" when the host has no lazy tool.
func (o *Outcome) staleHash(ctx context.Context, hash string) string {
	GinkgoHelper()
	h := o.FreshHost(nil)
	first, err := h.Client().ToolSet(ctx)
	Expect(err).NotTo(HaveOccurred(), "%s: tools/list fails on a fresh host", o.File)
	if first.SnapshotHash != hash {
		return first.SnapshotHash
	}
	for i, cat := range lazyCategories(h, first) {
		args, _ := json.Marshal(map[string]any{"category": cat})
		id := fmt.Sprintf("stale-search-%d", i)
		if _, err := h.Client().Execute(ctx, wire.ExecuteParams{CallID: id, ModelName: "search_tools", Arguments: args, IdempotencyKey: id,
			TimeoutMs: 30000, Context: wire.RunContext{RunID: o.RunID + "-stale", TaskID: "stale", Mode: "auto"}}); err != nil {
			continue
		}
		if ts, err := h.Client().ToolSet(ctx); err == nil && ts.SnapshotHash != hash {
			return ts.SnapshotHash
		}
	}
	return ""
}

// StoredAsGiven asserts that every checkpoint of the run, read back
// through a fresh host, is the document the core stored: store/list and
// store/get agree on the latest, each is its own canonical form (RFC 8785
// values, members sorted) and passes the core's verification (catches
// store-reorders-documents). A host that declares no store makes the
// scenario not applicable: checking that store is all it is for.
func (o *Outcome) StoredAsGiven() {
	GinkgoHelper()
	if !o.TestContext.Host().Initialized().Capabilities.Store {
		NotApplicable("the scenario checks the checkpoint the host's store returns, and the host's initialize declares capabilities.store false (hosts/wire/PROTOCOL.md, initialize)")
	}
	h := o.FreshHost(nil)
	ctx, cancel := context.WithTimeout(o.Ctx(), freshHostTimeout)
	defer cancel()
	entries, err := h.Client().StoreList(ctx, wire.StoreListParams{RunID: o.RunID, Kind: wire.KindCheckpoint})
	Expect(err).NotTo(HaveOccurred(), "%s: store/list fails on a fresh host", o.File)
	Expect(entries).NotTo(BeEmpty(), "%s: a fresh host lists no checkpoint of the run", o.File)
	latest, err := h.Client().StoreGet(ctx, wire.StoreGetParams{RunID: o.RunID, Kind: wire.KindCheckpoint})
	Expect(err).NotTo(HaveOccurred(), "%s: store/get fails on a fresh host", o.File)
	Expect(sameDocument(latest, mustCanonical(entries[len(entries)-1].Document))).To(BeTrue(),
		"%s: store/get and store/list disagree on the latest checkpoint; %s", o.File, jsonDiff(mustCanonical(entries[len(entries)-1].Document), latest))
	for i, e := range entries {
		cp, err := checkpoint.Assert(e.Document)
		Expect(err).NotTo(HaveOccurred(), "%s: stored checkpoint %d does not verify: %v", o.File, i+1, err)
		canonical, err := checkpoint.Serialize(cp)
		Expect(err).NotTo(HaveOccurred(), "%s: stored checkpoint %d does not serialize again", o.File, i+1)
		Expect(sameDocument(e.Document, canonical)).To(BeTrue(),
			"%s: stored checkpoint %d comes back re-serialized; a conformant store returns the canonical document as given (members sorted): %s", o.File, i+1, jsonDiff(canonical, e.Document))
	}
}

// mustCanonical is the RFC 8785 form of doc, or doc when it is no JSON.
func mustCanonical(doc []byte) []byte {
	out, err := jcs.Transform(doc)
	if err != nil {
		return doc
	}
	return out
}

// ReplayAnswersRecorded sends p again, unchanged, to a fresh host process
// on the run's store — a safe retry after a resume — and asserts that the
// host answers the result it recorded under p's idempotency key without
// executing the call again: same envelope, the file it wrote untouched.
func (o *Outcome) ReplayAnswersRecorded(p wire.ExecuteParams) {
	GinkgoHelper()
	orig := o.Answer(p.CallID)
	Expect(orig.Effects).NotTo(BeNil(), "%s: %s attests no effects", o.File, p.CallID)
	Expect(orig.Effects.Writes).To(HaveLen(1), "%s: %s must attest the one file it wrote", o.File, p.CallID)
	path := orig.Effects.Writes[0]
	before, err := os.Stat(filepath.Join(o.Workspace, filepath.FromSlash(path.Path)))
	Expect(err).NotTo(HaveOccurred(), "%s: the harness cannot stat %s", o.File, path.Path)
	h := o.FreshHost(nil)
	ctx, cancel := context.WithTimeout(o.Ctx(), freshHostTimeout)
	defer cancel()
	again, err := h.Client().Execute(ctx, p)
	Expect(err).NotTo(HaveOccurred(), "%s: a fresh host answers the retried %s (same idempotency key) with an error", o.File, p.CallID)
	Expect(again.OK).To(Equal(orig.OK), "%s: retried under the same idempotency key, %s answers ok=%v (%s); a conformant host answers the recorded result without executing again",
		o.File, p.CallID, again.OK, again.Content)
	Expect(again.CanonicalToolID).To(Equal(orig.CanonicalToolID), "%s: the retried %s names another tool", o.File, p.CallID)
	Expect(again.Effects).NotTo(BeNil(), "%s: the retried %s attests no effects; the recorded result had them", o.File, p.CallID)
	Expect(again.Effects.Writes).To(Equal(orig.Effects.Writes), "%s: the retried %s attests other writes than the recorded result", o.File, p.CallID)
	after, err := os.Stat(filepath.Join(o.Workspace, filepath.FromSlash(path.Path)))
	Expect(err).NotTo(HaveOccurred(), "%s: %s is gone after the retried call", o.File, path.Path)
	Expect(os.SameFile(before, after)).To(BeTrue(), "%s: the retried %s replaced %s: it ran a second time", o.File, p.CallID, path.Path)
	Expect(o.FileHash(path.Path)).To(Equal(*path.AfterHash), "%s: the retried %s changed %s", o.File, p.CallID, path.Path)
}
