package items

import (
	"encoding/json"
	"strconv"

	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/matrix/kit"
	. "github.com/onsi/gomega"
)

// This file holds the checks that put precise questions to a host's store
// and trace over the protocol, on a host process of their own (items 10,
// 14, 39).

// storeHost starts a host for a store or trace check, or marks the spec
// not applicable when the host offers neither (conform's memory store
// would stand in, and nothing of the host's would be checked).
func storeHost(c *kit.TestContext, need string) *kit.Direct {
	kit.FailRepro(c)
	d := kit.StartDirect(c, map[string]string{"notes.md": "keep these notes\n"}, nil)
	caps := d.H.Init.Capabilities
	if need == "store" && !caps.Store || need == "trace" && !caps.Trace {
		kit.NotApplicable("the host offers no " + need + " (initialize capabilities." + need + " is false)")
	}
	return d
}

// storeOutsideWorkspace: S000 S1 "Keep checkpoints outside
// model/workspace-controlled storage". Whatever the store's layout, a put
// and a flushed trace leave the workspace as it was.
func storeOutsideWorkspace(c *kit.TestContext) {
	c.It("store/put and trace/flush write nothing inside the workspace", "S1 L10", func() {
		d := storeHost(c, "store")
		before := d.Entries()
		var put wire.StorePutResult
		Expect(d.Call(wire.MethodStorePut, wire.StorePutParams{RunID: "s1-run", Kind: wire.KindCheckpoint,
			Document: json.RawMessage(`{"marker":"conform-s1-checkpoint"}`)}, &put)).To(Succeed(), "store/put failed")
		if d.H.Init.Capabilities.Trace {
			Expect(d.Call(wire.MethodTraceAppend, wire.TraceAppendParams{Event: traceEvent("s1-run", "t", "e", 1)}, &struct{}{})).To(Succeed(), "trace/append failed")
			Expect(d.Call(wire.MethodTraceFlush, struct{}{}, &wire.TraceFlushResult{})).To(Succeed(), "trace/flush failed")
		}
		Expect(d.Entries()).To(Equal(before), "the host's store or trace wrote inside the workspace; checkpoints must be kept outside model/workspace-controlled storage")
	})
}

// storeReturnsLatestAsPut: S000 S2 "Clone on read/write or otherwise
// prevent mutable aliasing". A put is a document of its own: store/get
// answers the latest exactly as put, and store/list every put as given,
// members an earlier document had and a later one lacks included.
func storeReturnsLatestAsPut(c *kit.TestContext) {
	c.It("store/get answers the latest document exactly as put, sharing nothing with an earlier one", "S2 L39", func() {
		d := storeHost(c, "store")
		docs := []string{`{"phase":"first","only":{"inFirst":true}}`, `{"phase":"second"}`}
		for _, doc := range docs {
			Expect(d.Call(wire.MethodStorePut, wire.StorePutParams{RunID: "s2-run", Kind: wire.KindCheckpoint, Document: json.RawMessage(doc)},
				&wire.StorePutResult{})).To(Succeed(), "store/put of %s failed", doc)
		}
		var got wire.StoreGetResult
		Expect(d.Call(wire.MethodStoreGet, wire.StoreGetParams{RunID: "s2-run", Kind: wire.KindCheckpoint}, &got)).To(Succeed(), "store/get failed")
		Expect(got.Document).To(MatchJSON(docs[1]), "store/get must answer the latest document exactly as it was put")
		var list wire.StoreListResult
		Expect(d.Call(wire.MethodStoreList, wire.StoreListParams{RunID: "s2-run", Kind: wire.KindCheckpoint}, &list)).To(Succeed(), "store/list failed")
		Expect(list.Entries).To(HaveLen(len(docs)), "store/list must list both puts")
		for i, e := range list.Entries {
			Expect(e.Document).To(MatchJSON(docs[i]), "store/list entry %d must be the document as it was put", i+1)
		}
	})
}

// traceKeepsIDs: S000 S3 "Correlate run, task, execution, event,
// tool-call, and sequence IDs". The trace lists each event with the IDs
// the core appended it with: two executions of one run, each numbering its
// own sequence.
func traceKeepsIDs(c *kit.TestContext) {
	c.It("trace/list answers each event with the run, task, execution, event and sequence IDs it was appended with", "S3 L14", func() {
		d := storeHost(c, "trace")
		evs := []wire.TraceEvent{
			traceEvent("s3-run", "task-a", "exec-1", 1), traceEvent("s3-run", "task-a", "exec-1", 2),
			traceEvent("s3-run", "task-b", "exec-2", 1), traceEvent("s3-run", "task-a", "exec-1", 5),
		}
		for _, e := range evs {
			Expect(d.Call(wire.MethodTraceAppend, wire.TraceAppendParams{Event: e}, &struct{}{})).To(Succeed(), "trace/append of %s failed", e.EventID)
		}
		Expect(d.Call(wire.MethodTraceFlush, struct{}{}, &wire.TraceFlushResult{})).To(Succeed(), "trace/flush failed")
		var list wire.TraceListResult
		Expect(d.Call(wire.MethodTraceList, wire.TraceListParams{RunID: "s3-run"}, &list)).To(Succeed(), "trace/list failed")
		Expect(list.Events).To(HaveLen(len(evs)), "trace/list must list every appended event")
		for i, e := range list.Events {
			w := evs[i]
			Expect([]any{e.EventID, e.RunID, e.TaskID, e.ExecutionID, e.Sequence}).To(Equal([]any{w.EventID, w.RunID, w.TaskID, w.ExecutionID, w.Sequence}),
				"trace/list event %d must keep the eventId, runId, taskId, executionId and sequence it was appended with", i+1)
		}
	})
}

// traceEvent is one trace event of execution exec numbered seq.
func traceEvent(run, task, exec string, seq int64) wire.TraceEvent {
	return wire.TraceEvent{EventID: run + ":" + exec + ":" + strconv.FormatInt(seq, 10), ExecutionID: exec, Kind: "state_transition",
		Payload: json.RawMessage(`{"to":"running"}`), RunID: run, Sequence: seq, TaskID: task, Timestamp: "2026-01-01T00:00:00.000Z"}
}

// flushSurvivesCrash: S000 S4 "Make `TracePort.flush` durable through the
// completion boundary" and CONTRACTS.md: trace/flush answers only after
// every accepted event is fsynced. So the host dying at once after the
// answer loses none of them: a fresh process on the store lists every one.
func flushSurvivesCrash(c *kit.TestContext) {
	c.It("events a trace/flush acknowledged survive the host being killed right after the answer", "S4 L12", func() {
		d := storeHost(c, "trace")
		evs := []wire.TraceEvent{traceEvent("s4-run", "t", "e", 1), traceEvent("s4-run", "t", "e", 2), traceEvent("s4-run", "t", "e", 3)}
		for _, e := range evs {
			Expect(d.Call(wire.MethodTraceAppend, wire.TraceAppendParams{Event: e}, &struct{}{})).To(Succeed(), "trace/append of %s failed", e.EventID)
		}
		var flushed wire.TraceFlushResult
		Expect(d.Call(wire.MethodTraceFlush, struct{}{}, &flushed)).To(Succeed(), "trace/flush failed")
		Expect(flushed.DurableEvents).To(BeNumerically(">=", len(evs)), "trace/flush acknowledged %d durable events after %d were accepted", flushed.DurableEvents, len(evs))
		d.Kill()
		var list wire.TraceListResult
		Expect(d.Fresh().Call(wire.MethodTraceList, wire.TraceListParams{RunID: "s4-run"}, &list)).To(Succeed(), "trace/list in a fresh host failed")
		var got []string
		for _, e := range list.Events {
			got = append(got, e.EventID)
		}
		Expect(got).To(Equal([]string{evs[0].EventID, evs[1].EventID, evs[2].EventID}),
			"after the host was killed right after acknowledging trace/flush, a fresh host lists %v; a flush answers only once every accepted event is durable", got)
	})
}

// idempotencyPerTool: S000 T12 "Preserve the core-provided idempotency key
// for operations that support it" — a key's record belongs to the tool
// that answered it (LAB: results are kept by canonical ID and key), so
// another tool called with the same key runs as itself.
func idempotencyPerTool(c *kit.TestContext) {
	c.It("an idempotency key's record answers only the tool that made it", "T12 L37", func() {
		kit.FailRepro(c)
		d := kit.StartDirect(c, map[string]string{}, nil)
		const key = "t12-shared-key"
		w := d.ExecKeyed("write_file", map[string]any{"path": "a.txt", "content": "one\n", "precondition": map[string]any{"kind": "must_not_exist"}}, "", key)
		Expect(w.Err).NotTo(HaveOccurred(), "write_file was answered with an error")
		Expect(w.Result.OK).To(BeTrue(), "write_file failed: %.200q", w.Result.Content)
		e := d.ExecKeyed("edit_file", map[string]any{"path": "a.txt", "oldText": "one", "newText": "two"}, "", key)
		Expect(e.Err).NotTo(HaveOccurred(), "edit_file was answered with an error")
		Expect(e.Result.CanonicalToolID).To(Equal("workspace.edit"), "edit_file under a key write_file used was answered as %s: the key's record answers only the tool that made it", e.Result.CanonicalToolID)
		Expect(e.Result.OK).To(BeTrue(), "edit_file failed: %.200q", e.Result.Content)
		Expect(d.Read("a.txt")).To(Equal("two\n"), "edit_file under a key write_file used did not run")
	})
}
