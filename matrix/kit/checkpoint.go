package kit

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/hosts/proxy"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/jsonrpc"
	"github.com/galaxy-stack/conform/matrix/session"
	"github.com/galaxy-stack/conform/matrix/snapshot"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// This file holds the durability checks of the checkpoint area (items 10,
// 11, 12, 40, 41): what the run sent to the host, from the wire log, and
// what a fresh host process on the run's store gives back.

// A wireCall is one request the harness sent to a host process of the
// run, with the host's answer as the harness received it.
type wireCall struct {
	// Process is the host process the request went to (1 first).
	Process int
	// ID is the JSON text of the request's id.
	ID     string
	Method string
	Params json.RawMessage
	// Result is the answer's result; nil when the host answered with an
	// error (Error) or not at all.
	Result json.RawMessage
	Error  *wire.Error
}

// acknowledged reports whether the host answered the call with a result.
func (c wireCall) acknowledged() bool { return c.Result != nil }

// calls returns the run's requests of method, in the order the harness
// sent them, each with its answer.
func (o *Outcome) calls(method string) []wireCall {
	GinkgoHelper()
	var out []wireCall
	pending := map[string]int{}
	for _, m := range o.Wire {
		var msg jsonrpc.Envelope
		if json.Unmarshal(m.Line, &msg) != nil || msg.ID == nil {
			continue
		}
		key := fmt.Sprintf("%d/%s", m.Process, *msg.ID)
		switch {
		case m.Sent && msg.Method == method:
			pending[key] = len(out)
			out = append(out, wireCall{Process: m.Process, ID: string(*msg.ID), Method: method, Params: msg.Params})
		case !m.Sent && msg.Method == "":
			i, ok := pending[key]
			if !ok {
				continue
			}
			delete(pending, key)
			if msg.Error != nil {
				out[i].Error = msg.Error
			} else {
				out[i].Result = msg.Result
			}
		}
	}
	return out
}

// reachedHost reports whether the request c was forwarded to the host:
// false when the fault proxy answered it (fail) or closed the transport
// (close) instead.
func (o *Outcome) reachedHost(c wireCall) bool {
	for _, f := range o.Faults {
		if f.Method == c.Method && f.RequestID == c.ID && (f.Action == proxy.ActionFail || f.Action == proxy.ActionClose) {
			return false
		}
	}
	return true
}

// canonical is the canonical JSON (JCS) of a JSON document, the bytes
// conform compares stored documents by.
func canonical(doc []byte) string {
	GinkgoHelper()
	var v any
	Expect(json.Unmarshal(doc, &v)).To(Succeed(), "a stored document is not JSON: %s", doc)
	b, err := canon.Marshal(v)
	Expect(err).NotTo(HaveOccurred(), "a stored document has no canonical JSON form: %s", doc)
	return string(b)
}

// A storedKind is what a fresh host process holds of one kind of the
// run's documents.
type storedKind struct {
	// List is store/list's answer, in put order, canonical.
	List []string
	// Latest is store/get's answer, canonical; "" when it has none.
	Latest string
}

// DurableStore reads one kind of the run's documents back through h, a
// fresh host process on the run's store, with store/list and store/get,
// and asserts what a durable, trusted store guarantees: both answers
// agree (store/get is the last entry of store/list, byte for byte); every
// document the host acknowledged is there, in put order, exactly as the
// run put it; and nothing is there that the run did not put to the host.
// A put the host received but whose acknowledgement failed may be there
// or not.
func (o *Outcome) DurableStore(h *session.Host, kind string) storedKind {
	GinkgoHelper()
	ctx, cancel := context.WithTimeout(o.Ctx(), freshHostTimeout)
	defer cancel()
	entries, err := h.Client().StoreList(ctx, wire.StoreListParams{RunID: o.RunID, Kind: kind})
	Expect(err).NotTo(HaveOccurred(), "%s: store/list of the run's %s documents fails in a fresh host process", o.File, kind)
	latest, err := h.Client().StoreGet(ctx, wire.StoreGetParams{RunID: o.RunID, Kind: kind})
	Expect(err).NotTo(HaveOccurred(), "%s: store/get of the run's latest %s fails in a fresh host process", o.File, kind)
	var got storedKind
	for _, e := range entries {
		got.List = append(got.List, canonical(e.Document))
	}
	if len(latest) > 0 {
		got.Latest = canonical(latest)
	}
	if len(got.List) == 0 {
		Expect(got.Latest).To(BeEmpty(), "%s: a fresh host's store/get returns a %s that its store/list does not list; both must read the same store", o.File, kind)
	} else {
		Expect(got.Latest).NotTo(BeEmpty(), "%s: a fresh host's store/list holds %d %s documents but its store/get returns none; store/get must return the latest one", o.File, len(got.List), kind)
		Expect(got.Latest).To(Equal(got.List[len(got.List)-1]), "%s: a fresh host's store/get returns another %s than the last one of its store/list; both must agree byte for byte", o.File, kind)
	}
	// The puts of kind the run sent, in order, and whether each must be
	// there.
	type put struct {
		doc      string
		required bool
	}
	var puts []put
	for _, c := range o.calls(wire.MethodStorePut) {
		var p wire.StorePutParams
		Expect(json.Unmarshal(c.Params, &p)).To(Succeed(), "%s: store/put params: %s", o.File, c.Params)
		if p.Kind != kind || p.RunID != o.RunID || !o.reachedHost(c) {
			continue
		}
		puts = append(puts, put{doc: canonical(p.Document), required: c.acknowledged()})
	}
	i := 0
	for _, p := range puts {
		if i < len(got.List) && got.List[i] == p.doc {
			i++
			continue
		}
		Expect(p.required).To(BeFalse(), "%s: the host acknowledged a store/put of a %s that a fresh host process on the same store does not return as put (store/list holds %d documents); an acknowledged put must be durable, byte for byte", o.File, kind, len(got.List))
	}
	Expect(i).To(Equal(len(got.List)), "%s: a fresh host's store/list holds %s document %d, which the run never put (or not in that order); the store must return exactly what was put", o.File, kind, i+1)
	return got
}

// DurableCheckpoints is durableStore for checkpoints, decoded, each
// passing the core's integrity assertion.
func (o *Outcome) DurableCheckpoints(h *session.Host) []*checkpoint.Checkpoint {
	GinkgoHelper()
	got := o.DurableStore(h, wire.KindCheckpoint)
	out := make([]*checkpoint.Checkpoint, len(got.List))
	for i, d := range got.List {
		cp, err := checkpoint.Assert([]byte(d))
		Expect(err).NotTo(HaveOccurred(), "%s: stored checkpoint %d, read back through a fresh host, fails the integrity check", o.File, i+1)
		out[i] = cp
	}
	return out
}

// ReasonsOf lists the reasons of cps in order.
func ReasonsOf(cps []*checkpoint.Checkpoint) []string {
	out := []string{}
	for _, c := range cps {
		out = append(out, string(c.Reason))
	}
	return out
}

// DurableTrace reads the run's trace back through h, a fresh host process
// on the run's store, with trace/list, and asserts that it holds every
// event the host acknowledged, in order, and no event the run did not
// send it. It returns the event IDs the fresh host lists.
func (o *Outcome) DurableTrace(h *session.Host) []string {
	GinkgoHelper()
	if !h.Init.Capabilities.Trace {
		Unchecked(o.File + ": the trace a fresh host reads back (capabilities.trace is false: conform's memory trace stood in)")
		return nil
	}
	ctx, cancel := context.WithTimeout(o.Ctx(), freshHostTimeout)
	defer cancel()
	evs, err := h.Client().TraceList(ctx, o.RunID)
	Expect(err).NotTo(HaveOccurred(), "%s: trace/list of the run fails in a fresh host process", o.File)
	var listed []string
	for _, e := range evs {
		listed = append(listed, e.EventID)
	}
	var sent, acked []string
	for _, c := range o.calls(wire.MethodTraceAppend) {
		var p wire.TraceAppendParams
		Expect(json.Unmarshal(c.Params, &p)).To(Succeed(), "%s: trace/append params: %s", o.File, c.Params)
		if p.Event.RunID != o.RunID || !o.reachedHost(c) {
			continue
		}
		sent = append(sent, p.Event.EventID)
		if c.acknowledged() {
			acked = append(acked, p.Event.EventID)
		}
	}
	for _, id := range listed {
		Expect(sent).To(ContainElement(id), "%s: a fresh host's trace/list holds event %s, which the run never appended", o.File, id)
	}
	i := 0
	for _, id := range listed {
		if i < len(acked) && id == acked[i] {
			i++
		}
	}
	Expect(i).To(Equal(len(acked)), "%s: a fresh host process on the same store lists %d trace events of the run, but the host acknowledged %d appends (first missing: %s); an acknowledged, flushed trace must be durable and reloaded by a fresh process", o.File, len(listed), len(acked), missingFrom(acked, i))
	return listed
}

func missingFrom(ids []string, i int) string {
	if i < len(ids) {
		return ids[i]
	}
	return "none"
}

// ResumedInFreshProcess asserts that the run's resume was served by a
// second host process: the calls after the pause went to process 2, and
// process 1 got no workspace verification.
func (o *Outcome) ResumedInFreshProcess() {
	GinkgoHelper()
	procs := map[int]bool{}
	for _, m := range o.Wire {
		procs[m.Process] = true
	}
	Expect(procs).To(HaveKey(2), "%s: the resume must run in a fresh host process on the same store, but every call went to one process", o.File)
	for _, c := range o.Verifies() {
		Expect(c.Process).To(Equal(2), "%s: the resume's workspace verification went to host process %d; it must come from the fresh process", o.File, c.Process)
	}
}

// A verifyCall is one workspace/fingerprint verify of the run with the
// host's answer.
type verifyCall struct {
	wireCall
	// Matches is the host's answer; nil when it answered with an error.
	Matches *bool
}

// Verifies returns the run's workspace/fingerprint verify requests.
func (o *Outcome) Verifies() []verifyCall {
	GinkgoHelper()
	var out []verifyCall
	for _, c := range o.calls(wire.MethodFingerprint) {
		var p wire.FingerprintParams
		if json.Unmarshal(c.Params, &p) != nil || p.Action != wire.FingerprintVerify {
			continue
		}
		v := verifyCall{wireCall: c}
		if c.Result != nil {
			var r wire.FingerprintResult
			if json.Unmarshal(c.Result, &r) == nil {
				v.Matches = r.Matches
			}
		}
		out = append(out, v)
	}
	return out
}

// ExecutesIn returns the call IDs of the tool/execute requests sent to
// host process p.
func (o *Outcome) ExecutesIn(p int) []string {
	GinkgoHelper()
	var out []string
	for _, c := range o.Executes() {
		if c.Process == p {
			out = append(out, c.CallID)
		}
	}
	return out
}

// SentTo reports whether host process p received a request of method.
func (o *Outcome) SentTo(p int, method string) bool {
	return slices.ContainsFunc(o.calls(method), func(c wireCall) bool { return c.Process == p })
}

// wireActiveFiles converts a checkpoint's active files to the wire form.
func wireActiveFiles(files []checkpoint.ActiveFileRecord) []wire.ActiveFile {
	out := make([]wire.ActiveFile, len(files))
	for i, f := range files {
		out[i] = f.ActiveFile
	}
	return out
}

// TaskStateDurable calls task.checkpoint again in h, a fresh host process,
// with the arguments of the run's call callID (a read), and asserts the
// Answer still holds want.
func (o *Outcome) TaskStateDurable(h *session.Host, callID, want string) {
	var p wire.ExecuteParams
	found := false
	for _, c := range o.Executes() {
		if c.CallID == callID {
			p, found = c.ExecuteParams, true
		}
	}
	Expect(found).To(BeTrue(), "%s: the run sent no tool/execute %s", o.File, callID)
	p.CallID, p.IdempotencyKey = callID+"-fresh", ""
	ctx, cancel := context.WithTimeout(o.Ctx(), freshHostTimeout)
	defer cancel()
	r, err := h.Client().Execute(ctx, p)
	Expect(err).NotTo(HaveOccurred(), "%s: %s (task.checkpoint read) fails in a fresh host process", o.File, p.ModelName)
	Expect(r.OK).To(BeTrue(), "%s: %s (task.checkpoint read) fails in a fresh host process: %s", o.File, p.ModelName, r.Content)
	Expect(r.Content).To(ContainSubstring(want), "%s: a fresh host process on the same store does not see the task.checkpoint state the run recorded", o.File)
}

// VerifyAgreesWithSnapshot checks the host's workspace verification
// against the harness's own snapshots: the workspace changed between the
// pause (the first execution is read-only, so the initial snapshot stands
// for it) and the resume, so no verification may say it matches.
func (o *Outcome) VerifyAgreesWithSnapshot() {
	changes := snapshot.Diff(o.Observed.Initial, o.Observed.Final)
	Expect(changes).NotTo(BeEmpty(), "%s: the harness's own snapshot shows no change before the resume; the scenario is broken", o.File)
	for _, v := range o.Verifies() {
		if v.Matches != nil {
			Expect(*v.Matches).To(BeFalse(), "%s: the host's workspace/fingerprint verify says the workspace matches the checkpoint, but the harness's own snapshot shows %s changed", o.File, describeSnapshotChanges(changes))
		}
	}
}

// SameSizeEditIsSeen asks a fresh host to verify the stored pause
// checkpoint twice: on the workspace as it was (the harness's snapshot
// shows no change: it must match), then after the harness rewrote
// README.md with other bytes of the same size and put its modification
// time back (the harness's snapshot shows the change: it must not match).
// A host that fingerprints by size and time, or always answers "matches",
// fails.
func (o *Outcome) SameSizeEditIsSeen() {
	h := o.FreshHost(nil)
	if !h.Init.Capabilities.Store || !h.Init.Capabilities.Fingerprint {
		Unchecked(o.File + ": a same-size edit against the stored checkpoint's fingerprint (the host declares no store or no fingerprint)")
		return
	}
	cps := o.DurableCheckpoints(h)
	Expect(cps).NotTo(BeEmpty(), "%s: a fresh host holds no checkpoint of the paused run", o.File)
	cp := cps[len(cps)-1]
	Expect(cp.Workspace.StateFingerprint).NotTo(BeNil(), "%s: the stored checkpoint has no workspace fingerprint", o.File)
	state := wire.WorkspaceState{ActiveFiles: wireActiveFiles(cp.Workspace.ActiveFiles), DirtyStateSummary: cp.Workspace.DirtyStateSummary, StateFingerprint: *cp.Workspace.StateFingerprint}
	Expect(snapshot.Diff(o.Observed.Initial, o.Observed.Final)).To(BeEmpty(), "%s: the workspace changed during a rejected resume", o.File)
	ctx, cancel := context.WithTimeout(o.Ctx(), freshHostTimeout)
	defer cancel()
	_, matches, err := h.Client().VerifyFingerprint(ctx, state)
	Expect(err).NotTo(HaveOccurred(), "%s: workspace/fingerprint verify of the stored checkpoint fails in a fresh host on the unchanged workspace", o.File)
	Expect(matches).To(BeTrue(), "%s: a fresh host says the unchanged workspace does not match the stored checkpoint", o.File)

	path := filepath.Join(o.Workspace, "README.md")
	st, err := os.Stat(path)
	Expect(err).NotTo(HaveOccurred(), "%s: the harness cannot stat README.md after the run", o.File)
	Expect(os.WriteFile(path, []byte("# dEmo\n"), st.Mode().Perm())).To(Succeed(), "%s: the harness cannot edit README.md", o.File)
	Expect(os.Chtimes(path, st.ModTime(), st.ModTime())).To(Succeed(), "%s: the harness cannot restore the times of README.md", o.File)
	after, err := snapshot.Take(o.Workspace)
	Expect(err).NotTo(HaveOccurred(), "%s: the harness cannot snapshot the workspace after its edit", o.File)
	Expect(snapshot.Diff(o.Observed.Final, after)).NotTo(BeEmpty(), "%s: the harness's own snapshot does not see its edit of README.md", o.File)
	_, matches, err = h.Client().VerifyFingerprint(ctx, state)
	if err == nil {
		Expect(matches).To(BeFalse(), "%s: after README.md was rewritten with other bytes of the same size and its old modification time, a fresh host's workspace/fingerprint verify still says the workspace matches the checkpoint; the fingerprint must cover file contents, not size and time", o.File)
	}
}

// A DurableAfter is what a fresh host process must hold after a run whose
// persistence failed: the reasons of the stored checkpoints, in order, and
// the number of final reports.
type DurableAfter struct {
	Checkpoints []string
	Reports     int
}

func describeSnapshotChanges(changes []snapshot.Change) string {
	var paths []string
	for _, c := range changes {
		paths = append(paths, c.Path+" ("+string(c.Before.Kind)+" → "+string(c.After.Kind)+")")
	}
	return join(paths)
}
