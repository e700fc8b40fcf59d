package matrix

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/matrix/session"
	"github.com/galaxy-stack/conform/matrix/snapshot"
	. "github.com/onsi/gomega"
)

// Items 10, 11, 12, 40 and 41: pause and fresh-host resume, tampered and
// changed-workspace rejection, and persistence failures that must fail
// closed. Every durability claim is read back through a fresh host
// process on the run's store (checkpoint_helpers.go).

var _ = describeItem(10, func(c *TestContext) {
	c.scenarios(map[string]check{
		"fresh-host-resume.json": func(o *outcome) {
			o.resumedInFreshProcess()
			Expect(o.executesIn(1)).To(Equal([]string{"list", "create", "task-update"}), "%s: the paused execution must run exactly list, create and task-update", o.File)
			Expect(o.executesIn(2)).To(Equal([]string{"task-read", "find-git", "review-diff"}), "%s: the resumed execution in the fresh host must run only the calls after the pause; no completed call runs again", o.File)
			vs := o.verifies()
			Expect(vs).To(HaveLen(1), "%s: the resume must verify the workspace once, in the fresh host", o.File)
			Expect(vs[0].Matches).NotTo(BeNil(), "%s: the fresh host answered the resume's workspace verification with an error; the workspace matches the checkpoint", o.File)
			Expect(*vs[0].Matches).To(BeTrue(), "%s: the fresh host says the unchanged workspace does not match the pause checkpoint", o.File)
			h := o.freshHost(nil)
			if !h.Init.Capabilities.Store {
				return // the harness's memory store stood in; nothing of the host's is durable
			}
			Expect(o.sentTo(2, wire.MethodStoreGet)).To(BeTrue(), "%s: the resume must load its checkpoint through the fresh host's store/get", o.File)
			cps := o.durableCheckpoints(h)
			Expect(reasonsOf(cps)).To(Equal([]string{"pause"}), "%s: a fresh host on the run's store must hold exactly the pause checkpoint", o.File)
			var vp wire.FingerprintParams
			Expect(json.Unmarshal(vs[0].Params, &vp)).To(Succeed(), "%s: the harness cannot decode the workspace/fingerprint verify it sent: %s", o.File, vs[0].Params)
			Expect(vp.State).NotTo(BeNil(), "%s: the harness's workspace/fingerprint verify carried no state", o.File)
			Expect(cps[0].Workspace.StateFingerprint).NotTo(BeNil(), "%s: the stored pause checkpoint has no workspace fingerprint", o.File)
			Expect(vp.State.StateFingerprint).To(Equal(*cps[0].Workspace.StateFingerprint), "%s: the resume verified another fingerprint than the stored pause checkpoint's", o.File)
			reports := o.durableStore(h, wire.KindFinalReport)
			Expect(reports.List).To(HaveLen(1), "%s: the completed run must leave exactly one final report in the host's store", o.File)
			Expect(o.durableTrace(h)).NotTo(BeEmpty(), "%s: a fresh host lists no trace events of the run", o.File)
			o.taskStateDurable(h, "task-read", "Wrote docs/notes.txt before the pause")
		},
	})
})

// taskStateDurable calls task.checkpoint again in h, a fresh host process,
// with the arguments of the run's call callID (a read), and asserts the
// answer still holds want.
func (o *outcome) taskStateDurable(h *session.Host, callID, want string) {
	var p wire.ExecuteParams
	found := false
	for _, c := range o.executes() {
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

var _ = describeItem(11, func(c *TestContext) {
	// rejected asserts the resume ran in a fresh host process and was
	// refused before any tool work, for the reason given.
	rejected := func(reason string, then ...func(o *outcome)) check {
		return func(o *outcome) {
			o.resumedInFreshProcess()
			Expect(o.executesIn(2)).To(BeEmpty(), "%s: the rejected resume sent tool calls to the fresh host; resume must fail before any tool work", o.File)
			Expect(o.ErrorMessage).To(ContainSubstring(reason), "%s: the resume must be refused with %q", o.File, reason)
			for _, f := range then {
				f(o)
			}
		}
	}
	integrity := "Checkpoint integrity validation failed"
	changed := rejected("Workspace state changed after the checkpoint was created.", (*outcome).verifyAgreesWithSnapshot)
	c.scenarios(map[string]check{
		"tampered-field.json":    rejected(integrity, (*outcome).sameSizeEditIsSeen),
		"tampered-byte.json":     rejected(integrity),
		"rehashed-forgery.json":  rejected("requires an explicit trusted_host provenance assertion"),
		"changed-content.json":   changed,
		"new-file.json":          changed,
		"file-to-directory.json": changed,
		"file-to-symlink.json":   changed,
	})
})

// verifyAgreesWithSnapshot checks the host's workspace verification
// against the harness's own snapshots: the workspace changed between the
// pause (the first execution is read-only, so the initial snapshot stands
// for it) and the resume, so no verification may say it matches.
func (o *outcome) verifyAgreesWithSnapshot() {
	changes := snapshot.Diff(o.Observed.Initial, o.Observed.Final)
	Expect(changes).NotTo(BeEmpty(), "%s: the harness's own snapshot shows no change before the resume; the scenario is broken", o.File)
	for _, v := range o.verifies() {
		if v.Matches != nil {
			Expect(*v.Matches).To(BeFalse(), "%s: the host's workspace/fingerprint verify says the workspace matches the checkpoint, but the harness's own snapshot shows %s changed", o.File, describeSnapshotChanges(changes))
		}
	}
}

func describeSnapshotChanges(changes []snapshot.Change) string {
	var paths []string
	for _, c := range changes {
		paths = append(paths, c.Path+" ("+string(c.Before.Kind)+" → "+string(c.After.Kind)+")")
	}
	return join(paths)
}

// sameSizeEditIsSeen asks a fresh host to verify the stored pause
// checkpoint twice: on the workspace as it was (the harness's snapshot
// shows no change: it must match), then after the harness rewrote
// README.md with other bytes of the same size and put its modification
// time back (the harness's snapshot shows the change: it must not match).
// A host that fingerprints by size and time, or always answers "matches",
// fails.
func (o *outcome) sameSizeEditIsSeen() {
	h := o.freshHost(nil)
	if !h.Init.Capabilities.Store || !h.Init.Capabilities.Fingerprint {
		return
	}
	cps := o.durableCheckpoints(h)
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

// A durableAfter is what a fresh host process must hold after a run whose
// persistence failed: the reasons of the stored checkpoints, in order, and
// the number of final reports.
type durableAfter struct {
	checkpoints []string
	reports     int
}

// failedClosed reads the run's checkpoints, final reports and trace back
// through a fresh host process on the run's store and compares them with
// want. A host that acknowledged a put or an append it did not make
// durable, whose store/get and store/list disagree, or whose trace a fresh
// process does not reload, fails; so does one that lost a document the
// host committed before its acknowledgement failed.
func failedClosed(want durableAfter) check {
	return func(o *outcome) {
		Expect(o.Status).NotTo(Equal("completed"), "%s: a persistence failure must never end completed", o.File)
		h := o.freshHost(nil)
		if !h.Init.Capabilities.Store {
			return
		}
		cps := o.durableCheckpoints(h)
		Expect(reasonsOf(cps)).To(Equal(want.checkpoints), "%s: a fresh host on the run's store must hold the checkpoints %v (committed ones included, even when their acknowledgement failed)", o.File, want.checkpoints)
		reports := o.durableStore(h, wire.KindFinalReport)
		Expect(reports.List).To(HaveLen(want.reports), "%s: a fresh host on the run's store must hold %d final reports (a report the host committed stays committed, though the run failed)", o.File, want.reports)
		o.durableTrace(h)
	}
}

var _ = describeItem(12, func(c *TestContext) {
	c.scenarios(map[string]check{
		"trace-flush-failure.json":  failedClosed(durableAfter{checkpoints: []string{"failure"}, reports: 1}),
		"final-report-failure.json": failedClosed(durableAfter{checkpoints: []string{"failure"}}),
	})
})

var _ = describeItem(40, func(c *TestContext) {
	c.scenarios(map[string]check{
		"final-report-throw-after-commit.json": failedClosed(durableAfter{checkpoints: []string{"failure"}, reports: 1}),
		"final-report-drop-ack.json":           failedClosed(durableAfter{checkpoints: []string{}, reports: 1}),
		"checkpoint-throw-after-commit.json":   failedClosed(durableAfter{checkpoints: []string{"provider_overflow", "failure"}}),
		"checkpoint-drop-ack.json":             failedClosed(durableAfter{checkpoints: []string{"provider_overflow"}}),
	})
})

var _ = describeItem(41, func(c *TestContext) {
	c.scenarios(map[string]check{
		"trace-append-failure.json":           failedClosed(durableAfter{checkpoints: []string{"failure"}, reports: 1}),
		"trace-flush-throw-after-commit.json": failedClosed(durableAfter{checkpoints: []string{"failure"}, reports: 1}),
		"trace-flush-drop-ack.json":           failedClosed(durableAfter{checkpoints: []string{}, reports: 1}),
		"capture-failure-at-completion.json":  failedClosed(durableAfter{checkpoints: []string{"failure"}}),
		"capture-failure-at-pause.json":       failedClosed(durableAfter{checkpoints: []string{}}),
	})
})
