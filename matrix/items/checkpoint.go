package items

import (
	"encoding/json"

	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/matrix"
	"github.com/galaxy-stack/conform/matrix/kit"
	. "github.com/onsi/gomega"
)

// Items 10, 11, 12, 40 and 41: pause and fresh-host resume, tampered and
// changed-workspace rejection, and persistence failures that must fail
// closed. Every durability claim is read back through a fresh host
// process on the run's store (checkpoint_helpers.go).

var _ = matrix.DescribeItem(matrix.Item{
	ID: 10, Name: "pause-resume", Area: "checkpoint", Title: "pause/checkpoint/resume with matching workspace",
	Scope: matrix.ScopeBoth, Tools: []string{"workspace.list", "workspace.write", "task.checkpoint", "catalog.search", "git.exec"}, Guarantees: []string{"W6", "S1", "S4"},
	Contract: "hosts/wire/CONTRACTS.md#checkpoint-and-resume", Guarantee: "A paused run MUST leave a trusted checkpoint from which a fresh host on the same store resumes when the workspace matches.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		"fresh-host-resume.json": kit.On("W6 S1 S4 L10", func(o *kit.Outcome) {
			o.ResumedInFreshProcess()
			Expect(o.ExecutesIn(1)).To(Equal([]string{"list", "create", "task-update"}), "%s: the paused execution must run exactly list, create and task-update", o.File)
			Expect(o.ExecutesIn(2)).To(Equal([]string{"task-read", "find-git", "review-diff"}), "%s: the resumed execution in the fresh host must run only the calls after the pause; no completed call runs again", o.File)
			vs := o.Verifies()
			Expect(vs).To(HaveLen(1), "%s: the resume must verify the workspace once, in the fresh host", o.File)
			Expect(vs[0].Matches).NotTo(BeNil(), "%s: the fresh host answered the resume's workspace verification with an error; the workspace matches the checkpoint", o.File)
			Expect(*vs[0].Matches).To(BeTrue(), "%s: the fresh host says the unchanged workspace does not match the pause checkpoint", o.File)
			h := o.FreshHost(nil)
			if !o.HasStore(h) {
				return // the harness's memory store stood in; nothing of the host's is durable
			}
			Expect(o.SentTo(2, wire.MethodStoreGet)).To(BeTrue(), "%s: the resume must load its checkpoint through the fresh host's store/get", o.File)
			cps := o.DurableCheckpoints(h)
			Expect(kit.ReasonsOf(cps)).To(Equal([]string{"pause"}), "%s: a fresh host on the run's store must hold exactly the pause checkpoint", o.File)
			var vp wire.FingerprintParams
			Expect(json.Unmarshal(vs[0].Params, &vp)).To(Succeed(), "%s: the harness cannot decode the workspace/fingerprint verify it sent: %s", o.File, vs[0].Params)
			Expect(vp.State).NotTo(BeNil(), "%s: the harness's workspace/fingerprint verify carried no state", o.File)
			Expect(cps[0].Workspace.StateFingerprint).NotTo(BeNil(), "%s: the stored pause checkpoint has no workspace fingerprint", o.File)
			Expect(vp.State.StateFingerprint).To(Equal(*cps[0].Workspace.StateFingerprint), "%s: the resume verified another fingerprint than the stored pause checkpoint's", o.File)
			reports := o.DurableStore(h, wire.KindFinalReport)
			Expect(reports.List).To(HaveLen(1), "%s: the completed run must leave exactly one final report in the host's store", o.File)
			Expect(o.DurableTrace(h)).NotTo(BeEmpty(), "%s: a fresh host lists no trace events of the run", o.File)
			o.TaskStateDurable(h, "task-read", "Wrote docs/notes.txt before the pause")
		}),
	})
})

var _ = matrix.DescribeItem(matrix.Item{
	ID: 11, Name: "tampered-changed-rejection", Area: "checkpoint", Title: "tampered checkpoint and changed workspace rejection",
	Scope: matrix.ScopeBoth, Tools: []string{"workspace.list", "workspace.read"}, Guarantees: []string{"W6", "S1"},
	Contract: "hosts/wire/CONTRACTS.md#workspace-fingerprint", Guarantee: "Resume MUST fail with CHECKPOINT_INCOMPATIBLE when the checkpoint was tampered with or the workspace changed.",
}, func(c *kit.TestContext) {
	// rejected asserts the resume ran in a fresh host process and was
	// refused before any tool work, for the reason given.
	rejected := func(reason string, then ...func(o *kit.Outcome)) kit.Check {
		return func(o *kit.Outcome) {
			o.ResumedInFreshProcess()
			Expect(o.ExecutesIn(2)).To(BeEmpty(), "%s: the rejected resume sent tool calls to the fresh host; resume must fail before any tool work", o.File)
			Expect(o.ErrorMessage).To(ContainSubstring(reason), "%s: the resume must be refused with %q", o.File, reason)
			for _, f := range then {
				f(o)
			}
		}
	}
	integrity := "Checkpoint integrity validation failed"
	changed := rejected("Workspace state changed after the checkpoint was created.", (*kit.Outcome).VerifyAgreesWithSnapshot)
	c.Scenarios(map[string]kit.Case{
		"tampered-field.json":    kit.On("S1 L11", rejected(integrity, (*kit.Outcome).SameSizeEditIsSeen)),
		"tampered-byte.json":     kit.On("S1 L11", rejected(integrity)),
		"rehashed-forgery.json":  kit.On("S1 L11", rejected("requires an explicit trusted_host provenance assertion")),
		"changed-content.json":   kit.On("W6 L11", changed),
		"new-file.json":          kit.On("W6 L11", changed),
		"file-to-directory.json": kit.On("W6 L11", changed),
		"file-to-symlink.json":   kit.On("W6 L11", changed),
	})
	c.It("the fingerprint sees a mode-only change, a dotfile edit and an added empty directory, and refuses a stale active-file hash", "W6 L11", func() {
		kit.FailRepro(c)
		fingerprintSeesEveryEntry(c)
	})
})

// failedClosed reads the run's checkpoints, final reports and trace back
// through a fresh host process on the run's store and compares them with
// want. A host that acknowledged a put or an append it did not make
// durable, whose store/get and store/list disagree, or whose trace a fresh
// process does not reload, fails; so does one that lost a document the
// host committed before its acknowledgement failed.
func failedClosed(want kit.DurableAfter) kit.Check {
	return func(o *kit.Outcome) {
		Expect(o.Status).NotTo(Equal("completed"), "%s: a persistence failure must never end completed", o.File)
		h := o.FreshHost(nil)
		if !o.HasStore(h) {
			return
		}
		cps := o.DurableCheckpoints(h)
		Expect(kit.ReasonsOf(cps)).To(Equal(want.Checkpoints), "%s: a fresh host on the run's store must hold the checkpoints %v (committed ones included, even when their acknowledgement failed)", o.File, want.Checkpoints)
		reports := o.DurableStore(h, wire.KindFinalReport)
		Expect(reports.List).To(HaveLen(want.Reports), "%s: a fresh host on the run's store must hold %d final reports (a report the host committed stays committed, though the run failed)", o.File, want.Reports)
		o.DurableTrace(h)
	}
}

var _ = matrix.DescribeItem(matrix.Item{
	ID: 12, Name: "trace-report-persistence", Area: "checkpoint", Title: "trace flush and final-report persistence failure",
	Scope: matrix.ScopeBoth, Tools: []string{"workspace.list"}, Guarantees: []string{"S4"},
	Contract: "hosts/wire/CONTRACTS.md#store-and-trace-documents", Guarantee: "A trace flush or final-report persistence failure MUST NOT produce a completed run.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		"trace-flush-failure.json":  kit.On("S4 L12", failedClosed(kit.DurableAfter{Checkpoints: []string{"failure"}, Reports: 1})),
		"final-report-failure.json": kit.On("S4 L12", failedClosed(kit.DurableAfter{Checkpoints: []string{"failure"}})),
	})
})

// The durability items: what a fresh host process on the run's store
// finds — edit evidence and idempotency records (37), canonical and
// tamper-evident checkpoints and registry hashes (39), the tool-cycle
// suffix (49) and the evidence-complete boundary (50).

var _ = matrix.DescribeItem(matrix.Item{
	ID: 37, Name: "exhaustion-resume", Area: "checkpoint", Title: "hard token exhaustion after a write resumes from durable edit evidence",
	Scope: matrix.ScopeBoth, Tools: []string{"workspace.list", "workspace.write", "project.validate", "git.exec"}, Guarantees: []string{"T12"},
	Contract: "hosts/wire/CONTRACTS.md#checkpoint-and-resume", Guarantee: "Resume after token exhaustion MUST use the durable edit evidence and MUST NOT execute the mutation a second time.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		"written-exhaustion.json": kit.On("T12 L37", func(o *kit.Outcome) {
			// The write ran once, in the first host process; the resumed
			// process never received it.
			o.ExecutedOnce("37-write", 1)
			write := o.ExecuteParams("37-write")
			Expect(write.IdempotencyKey).NotTo(BeEmpty(), "%s: the core sent write_file without its idempotency key", o.File)
			// The resume used durable edit evidence: the failure
			// checkpoint a fresh host reads back records the write.
			if cp, ok := o.CheckpointOf("failure"); ok {
				Expect(cp.Edits).To(ContainElement(And(HaveField("Path", "app/greet.js"), HaveField("ToolCallID", "37-write"))),
					"%s: the failure checkpoint a fresh host reads back holds no edit evidence of app/greet.js; the resume would write it again", o.File)
			}
			// A retried write under the same idempotency key, sent to a
			// fresh host, answers the recorded result and does not run
			// again (catches ignore-idempotency-key).
			o.ReplayAnswersRecorded(write)
		}),
	})
})

var _ = matrix.DescribeItem(matrix.Item{
	ID: 39, Name: "checkpoint-permutations", Area: "checkpoint", Title: "seeded checkpoint and registry permutations remain deterministic",
	Scope: matrix.ScopeBoth, Tools: nil, Guarantees: []string{"S2"},
	Contract: "hosts/wire/CONTRACTS.md#checkpoint-and-resume", Guarantee: "Checkpoint and registry permutations MUST stay deterministic, sorted, redacted and tamper-evident.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		// The checkpoint the core stored comes back from a fresh host as
		// given: store/get and store/list agree, the document is its own
		// canonical form with members sorted, and it verifies.
		"stored-pause-checkpoint.json": kit.On("S2 L39", func(o *kit.Outcome) { o.StoredAsGiven() }),
	})
	kit.CheckpointProperties(c)
})

var _ = matrix.DescribeItem(matrix.Item{
	ID: 40, Name: "persistence-ack-failure", Area: "checkpoint", Title: "checkpoint/final-report persistence acknowledgement failures fail closed",
	Scope: matrix.ScopeBoth, Tools: []string{"workspace.list"}, Guarantees: []string{"S4"},
	Contract: "hosts/wire/CONTRACTS.md#checkpoint-and-resume", Guarantee: "Persistence acknowledgement failures MUST fail closed, even when the write committed before the failure.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		"final-report-throw-after-commit.json": kit.On("S4 L40", failedClosed(kit.DurableAfter{Checkpoints: []string{"failure"}, Reports: 1})),
		"final-report-drop-ack.json":           kit.On("S4 L40", failedClosed(kit.DurableAfter{Checkpoints: []string{}, Reports: 1})),
		"checkpoint-throw-after-commit.json":   kit.On("S4 L40", failedClosed(kit.DurableAfter{Checkpoints: []string{"provider_overflow", "failure"}})),
		"checkpoint-drop-ack.json":             kit.On("S4 L40", failedClosed(kit.DurableAfter{Checkpoints: []string{"provider_overflow"}})),
	})
})

var _ = matrix.DescribeItem(matrix.Item{
	ID: 41, Name: "trace-evidence-failure", Area: "checkpoint", Title: "trace and workspace-evidence capture failures cannot complete a run",
	Scope: matrix.ScopeBoth, Tools: []string{"workspace.list", "workspace.write", "git.exec"}, Guarantees: []string{"S4", "W6"},
	Contract: "hosts/wire/CONTRACTS.md#checkpoint-and-resume", Guarantee: "Trace write/flush and workspace-evidence capture failures MUST NOT produce a completed run.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		"trace-append-failure.json":           kit.On("S4 L41", failedClosed(kit.DurableAfter{Checkpoints: []string{"failure"}, Reports: 1})),
		"trace-flush-throw-after-commit.json": kit.On("S4 L41", failedClosed(kit.DurableAfter{Checkpoints: []string{"failure"}, Reports: 1})),
		"trace-flush-drop-ack.json":           kit.On("S4 L41", failedClosed(kit.DurableAfter{Checkpoints: []string{}, Reports: 1})),
		"capture-failure-at-completion.json":  kit.On("W6 L41", failedClosed(kit.DurableAfter{Checkpoints: []string{"failure"}})),
		"capture-failure-at-pause.json":       kit.On("W6 L41", failedClosed(kit.DurableAfter{Checkpoints: []string{}})),
	})
})

var _ = matrix.DescribeItem(matrix.Item{
	ID: 49, Name: "fresh-host-cycle", Area: "checkpoint", Title: "a fresh host restores the tool-cycle suffix and blocks an incomplete cycle",
	Scope: matrix.ScopeBoth, Tools: []string{"task.checkpoint"}, Guarantees: nil,
	Contract: "hosts/wire/CONTRACTS.md#no-progress-guards", Guarantee: "A fresh host MUST restore the bounded tool-cycle suffix and block an incomplete alternating cycle before dispatch.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		"incomplete-cycle-resume.json": kit.On("L49", func(o *kit.Outcome) {
			// B,A,B ran before the pause; the resumed A was blocked before
			// dispatch and never reached the fresh host.
			o.Dispatched("update_checkpoint", "update_checkpoint", "update_checkpoint", "update_checkpoint")
			o.NoExecuteIn(2)
			blocked := o.Observed.ToolResults[len(o.Observed.ToolResults)-1]
			Expect(blocked.ErrorCode).NotTo(BeNil(), "%s: the resumed call that completes the cycle must be answered NO_PROGRESS", o.File)
			Expect(*blocked.ErrorCode).To(Equal("NO_PROGRESS"), "%s: the resumed call that completes the cycle must be answered NO_PROGRESS", o.File)
			cp, ok := o.CheckpointOf("pause")
			if !ok {
				return
			}
			Expect(cp.NoProgress).NotTo(BeNil(), "%s: the pause checkpoint a fresh host reads back has no noProgress state", o.File)
			s := cp.NoProgress.ToolCycleSuffix
			Expect(len(s)).To(BeNumerically(">=", 3), "%s: the pause checkpoint a fresh host reads back keeps %d tool-cycle entries; the bounded suffix B,A,B is needed to block the cycle", o.File, len(s))
			n := len(s)
			Expect(s[n-1].ArgumentsHash).To(Equal(s[n-3].ArgumentsHash), "%s: the stored tool-cycle suffix does not end B,A,B", o.File)
			Expect(s[n-1].ArgumentsHash).NotTo(Equal(s[n-2].ArgumentsHash), "%s: the stored tool-cycle suffix does not end B,A,B", o.File)
			o.RestoredUnderCheckpointHash(2, cp.Compatibility.RegistrySnapshotHash)
			o.RestoreOnlyCorrect(cp.Compatibility.ActiveToolNames, cp.Compatibility.RegistrySnapshotHash)
		}),
	})
})

var _ = matrix.DescribeItem(matrix.Item{
	ID: 50, Name: "verified-resume-toolfree", Area: "checkpoint", Title: "a verified resume with current evidence sends a tool-free first request",
	Scope: matrix.ScopeBoth, Tools: []string{"workspace.write", "project.validate", "git.exec"}, Guarantees: nil,
	Contract: "hosts/wire/CONTRACTS.md#checkpoint-and-resume", Guarantee: "A verified resume with current validation and diff evidence MUST send a tool-free first request and MUST NOT repeat completed work.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		"evidence-complete-resume.json": kit.On("L50", func(o *kit.Outcome) {
			// Every completed call ran once, before the pause; the fresh
			// host received no tool call at all, and the first request of
			// the resumed execution offered no tools.
			for _, id := range []string{"50-write", "50-validate", "50-diff"} {
				o.ExecutedOnce(id, 1)
			}
			o.NoExecuteIn(2)
			o.FirstResumedRequestToolFree()
			cp, ok := o.CheckpointOf("pause")
			if !ok {
				return
			}
			Expect(cp.CompletionEvidence.DiffReview).NotTo(BeNil(), "%s: the pause checkpoint a fresh host reads back lost the diff review evidence", o.File)
			Expect(cp.Validation).To(ContainElement(HaveField("Status", BeEquivalentTo("passed"))), "%s: the pause checkpoint a fresh host reads back lost the passed validation", o.File)
			o.RestoredUnderCheckpointHash(2, cp.Compatibility.RegistrySnapshotHash)
			o.RestoreOnlyCorrect(cp.Compatibility.ActiveToolNames, cp.Compatibility.RegistrySnapshotHash)
		}),
	})
})
