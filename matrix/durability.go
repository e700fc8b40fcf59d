package matrix

import (
	"context"
	"os"
	"path/filepath"

	"github.com/galaxy-stack/conform/hosts/wire"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The durability items: what a fresh host process on the run's store
// finds — edit evidence and idempotency records (37), canonical and
// tamper-evident checkpoints and registry hashes (39), the tool-cycle
// suffix (49) and the evidence-complete boundary (50).

var _ = describeItem(37, func(c *TestContext) {
	c.scenarios(map[string]check{
		"written-exhaustion.json": func(o *outcome) {
			// The write ran once, in the first host process; the resumed
			// process never received it.
			o.executedOnce("37-write", 1)
			write := o.executeParams("37-write")
			Expect(write.IdempotencyKey).NotTo(BeEmpty(), "%s: the core sent write_file without its idempotency key", o.File)
			// The resume used durable edit evidence: the failure
			// checkpoint a fresh host reads back records the write.
			if cp, ok := o.checkpointOf("failure"); ok {
				Expect(cp.Edits).To(ContainElement(And(HaveField("Path", "app/greet.js"), HaveField("ToolCallID", "37-write"))),
					"%s: the failure checkpoint a fresh host reads back holds no edit evidence of app/greet.js; the resume would write it again", o.File)
			}
			// A retried write under the same idempotency key, sent to a
			// fresh host, answers the recorded result and does not run
			// again (catches ignore-idempotency-key).
			o.replayAnswersRecorded(write)
		},
	})
})

var _ = describeItem(39, func(c *TestContext) {
	c.scenarios(map[string]check{
		// The checkpoint the core stored comes back from a fresh host as
		// given: store/get and store/list agree, the document is its own
		// canonical form with members sorted, and it verifies.
		"stored-pause-checkpoint.json": func(o *outcome) { o.storedAsGiven() },
	})
	item39(c)
})

var _ = describeItem(49, func(c *TestContext) {
	c.scenarios(map[string]check{
		"incomplete-cycle-resume.json": func(o *outcome) {
			// B,A,B ran before the pause; the resumed A was blocked before
			// dispatch and never reached the fresh host.
			o.dispatched("update_checkpoint", "update_checkpoint", "update_checkpoint", "update_checkpoint")
			o.noExecuteIn(2)
			blocked := o.Observed.ToolResults[len(o.Observed.ToolResults)-1]
			Expect(blocked.ErrorCode).NotTo(BeNil(), "%s: the resumed call that completes the cycle must be answered NO_PROGRESS", o.File)
			Expect(*blocked.ErrorCode).To(Equal("NO_PROGRESS"), "%s: the resumed call that completes the cycle must be answered NO_PROGRESS", o.File)
			cp, ok := o.checkpointOf("pause")
			if !ok {
				return
			}
			Expect(cp.NoProgress).NotTo(BeNil(), "%s: the pause checkpoint a fresh host reads back has no noProgress state", o.File)
			s := cp.NoProgress.ToolCycleSuffix
			Expect(len(s)).To(BeNumerically(">=", 3), "%s: the pause checkpoint a fresh host reads back keeps %d tool-cycle entries; the bounded suffix B,A,B is needed to block the cycle", o.File, len(s))
			n := len(s)
			Expect(s[n-1].ArgumentsHash).To(Equal(s[n-3].ArgumentsHash), "%s: the stored tool-cycle suffix does not end B,A,B", o.File)
			Expect(s[n-1].ArgumentsHash).NotTo(Equal(s[n-2].ArgumentsHash), "%s: the stored tool-cycle suffix does not end B,A,B", o.File)
			o.restoredUnderCheckpointHash(2, cp.Compatibility.RegistrySnapshotHash)
			o.restoreOnlyCorrect(cp.Compatibility.ActiveToolNames, cp.Compatibility.RegistrySnapshotHash)
		},
	})
})

var _ = describeItem(50, func(c *TestContext) {
	c.scenarios(map[string]check{
		"evidence-complete-resume.json": func(o *outcome) {
			// Every completed call ran once, before the pause; the fresh
			// host received no tool call at all, and the first request of
			// the resumed execution offered no tools.
			for _, id := range []string{"50-write", "50-validate", "50-diff"} {
				o.executedOnce(id, 1)
			}
			o.noExecuteIn(2)
			o.firstResumedRequestToolFree()
			cp, ok := o.checkpointOf("pause")
			if !ok {
				return
			}
			Expect(cp.CompletionEvidence.DiffReview).NotTo(BeNil(), "%s: the pause checkpoint a fresh host reads back lost the diff review evidence", o.File)
			Expect(cp.Validation).To(ContainElement(HaveField("Status", BeEquivalentTo("passed"))), "%s: the pause checkpoint a fresh host reads back lost the passed validation", o.File)
			o.restoredUnderCheckpointHash(2, cp.Compatibility.RegistrySnapshotHash)
			o.restoreOnlyCorrect(cp.Compatibility.ActiveToolNames, cp.Compatibility.RegistrySnapshotHash)
		},
	})
})

// replayAnswersRecorded sends p again, unchanged, to a fresh host process
// on the run's store — a safe retry after a resume — and asserts that the
// host answers the result it recorded under p's idempotency key without
// executing the call again: same envelope, the file it wrote untouched.
func (o *outcome) replayAnswersRecorded(p wire.ExecuteParams) {
	GinkgoHelper()
	orig := o.answer(p.CallID)
	Expect(orig.Effects).NotTo(BeNil(), "%s: %s attests no effects", o.File, p.CallID)
	Expect(orig.Effects.Writes).To(HaveLen(1), "%s: %s must attest the one file it wrote", o.File, p.CallID)
	path := orig.Effects.Writes[0]
	before, err := os.Stat(filepath.Join(o.Workspace, filepath.FromSlash(path.Path)))
	Expect(err).NotTo(HaveOccurred(), "%s: the harness cannot stat %s", o.File, path.Path)
	h := o.freshHost(nil)
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
	Expect(o.fileHash(path.Path)).To(Equal(*path.AfterHash), "%s: the retried %s changed %s", o.File, p.CallID, path.Path)
}
