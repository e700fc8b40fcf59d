package matrix

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/jsonrpc"
	"github.com/galaxy-stack/conform/matrix/session"
	"github.com/gowebpki/jcs"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// executeParams returns the tool/execute request of the call callID as
// the harness sent it the first time.
func (o *outcome) executeParams(callID string) wire.ExecuteParams {
	GinkgoHelper()
	for _, c := range o.executes() {
		if c.CallID == callID {
			return c.ExecuteParams
		}
	}
	Fail(o.File + ": the harness sent no tool/execute with callId " + callID)
	return wire.ExecuteParams{}
}

// executedOnce asserts that the call callID reached a host exactly once,
// in host process process: a completed call must never run again after a
// resume.
func (o *outcome) executedOnce(callID string, process int) {
	GinkgoHelper()
	var in []int
	for _, c := range o.executes() {
		if c.CallID == callID {
			in = append(in, c.Process)
		}
	}
	Expect(in).To(Equal([]int{process}), "%s: %s reached host processes %v; it must run exactly once, in process %d, and never again after the resume", o.File, callID, in, process)
}

// noExecuteIn asserts that host process process received no tool/execute.
func (o *outcome) noExecuteIn(process int) {
	GinkgoHelper()
	var got []string
	for _, c := range o.executes() {
		if c.Process == process {
			got = append(got, c.CallID)
		}
	}
	Expect(got).To(BeEmpty(), "%s: the resumed host process %d received tool/execute for %v; after this resume no call may be dispatched", o.File, process, got)
}

// firstResumedRequestToolFree asserts that the first model request of the
// second execution offered no tools: a verified resume whose evidence is
// complete goes straight to finalization.
func (o *outcome) firstResumedRequestToolFree() {
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

// restoredUnderCheckpointHash asserts that the core restored the tool set
// of host process process with tools/restore under hash, the checkpoint's
// registry snapshot hash, and that the host accepted it.
func (o *outcome) restoredUnderCheckpointHash(process int, hash string) {
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

// restoreOnlyCorrect asks fresh host processes on the run's store to
// restore the checkpointed tool set (names, hash): under a forged hash and
// under the hash of another tool set the host must refuse, under the
// checkpoint's hash, its names in reverse order, it must restore exactly
// that hash (catches restore-ignores-snapshot-hash).
func (o *outcome) restoreOnlyCorrect(names []string, hash string) {
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
	h := o.freshHost(nil)
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
func (o *outcome) staleHash(ctx context.Context, hash string) string {
	GinkgoHelper()
	h := o.freshHost(nil)
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

// storedAsGiven asserts that every checkpoint of the run, read back
// through a fresh host, is the document the core stored: store/list and
// store/get agree on the latest, each is its own canonical form (RFC 8785
// values, members sorted) and passes the core's verification (catches
// store-reorders-documents).
func (o *outcome) storedAsGiven() {
	GinkgoHelper()
	if !o.TestContext.Host().Initialized().Capabilities.Store {
		return
	}
	h := o.freshHost(nil)
	ctx, cancel := context.WithTimeout(o.Ctx(), freshHostTimeout)
	defer cancel()
	entries, err := h.Client().StoreList(ctx, wire.StoreListParams{RunID: o.RunID, Kind: wire.KindCheckpoint})
	Expect(err).NotTo(HaveOccurred(), "%s: store/list fails on a fresh host", o.File)
	Expect(entries).NotTo(BeEmpty(), "%s: a fresh host lists no checkpoint of the run", o.File)
	latest, err := h.Client().StoreGet(ctx, wire.StoreGetParams{RunID: o.RunID, Kind: wire.KindCheckpoint})
	Expect(err).NotTo(HaveOccurred(), "%s: store/get fails on a fresh host", o.File)
	Expect(sameDocument(latest, mustCanonical(entries[len(entries)-1].Document))).To(BeTrue(),
		"%s: store/get and store/list disagree on the latest checkpoint:\n get  %s\n list %s", o.File, latest, entries[len(entries)-1].Document)
	for i, e := range entries {
		cp, err := checkpoint.Assert(e.Document)
		Expect(err).NotTo(HaveOccurred(), "%s: stored checkpoint %d does not verify: %v", o.File, i+1, err)
		canonical, err := checkpoint.Serialize(cp)
		Expect(err).NotTo(HaveOccurred(), "%s: stored checkpoint %d does not serialize again", o.File, i+1)
		Expect(sameDocument(e.Document, canonical)).To(BeTrue(),
			"%s: stored checkpoint %d comes back re-serialized; a conformant store returns the canonical document as given (members sorted):\n got  %s\n want %s", o.File, i+1, e.Document, canonical)
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
