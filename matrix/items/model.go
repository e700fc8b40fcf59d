package items

import (
	"fmt"

	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/matrix"
	"github.com/galaxy-stack/conform/matrix/kit"
	. "github.com/onsi/gomega"
)

// Items 25, 26, 36 and 38: context pressure. Token counts come from
// conform's model double (the fixture's model.tokenCountSteps), so the
// items check the core's rules against the double's counts: what each
// checkpoint holds, as the run's store keeps it, and what the model
// request after it still carries.

var _ = matrix.DescribeItem(matrix.Item{
	ID: 25, Name: "overflow-compaction", Area: "model", Title: "provider overflow checkpoints, compacts, recounts, and continues",
	Scope: matrix.ScopeCore, Tools: []string{"workspace.list", "workspace.write", "project.validate", "git.exec"}, Guarantees: nil,
	Contract: "hosts/wire/CONTRACTS.md#context-and-prompt", Guarantee: "A provider context overflow MUST checkpoint, compact, recount and continue.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		// The third request counts over hard input once: a provider_overflow
		// checkpoint of the first compaction, holding the task and the write,
		// then a recount and the same request, compacted (catches
		// overflow-skip-compaction).
		"overflow-once.json": kit.On("L25", func(o *kit.Outcome) {
			cps := o.Saved(checkpoint.ReasonProviderOverflow)
			Expect(cps).To(HaveLen(1), "%s: one provider overflow must leave exactly one provider_overflow checkpoint", o.File)
			cp := cps[0]
			o.KeepsTask(cp)
			Expect(cp.Totals.CompactionCount).To(Equal(int64(1)), "%s: the provider_overflow checkpoint must count the run's first compaction", o.File)
			Expect(kit.EditPaths(cp)).To(Equal([]string{"app/greet.js"}), "%s: the provider_overflow checkpoint must keep the write made before the overflow", o.File)
			next := o.RequestAfter(cp)
			Expect(next.Request).To(Equal(3), "%s: the overflowing third request must be sent after the compaction, not skipped or sent before it", o.File)
			o.CarriesTaskAndCheckpoint(next, cp)
			Expect(o.Observed.ModelTokenCountStepsConsumed).To(Equal(len(o.ModelRequests)+1),
				"%s: every request must be counted once and the overflowing one counted again after the compaction", o.File)
			o.Dispatched("list_files", "write_file", "validate_project", "git_operation")
		}),
	})
})

var _ = matrix.DescribeItem(matrix.Item{
	ID: 26, Name: "persistent-overflow", Area: "model", Title: "persistent provider overflow fails with a resumable checkpoint",
	Scope: matrix.ScopeCore, Tools: []string{"workspace.list", "workspace.write", "project.validate", "git.exec"}, Guarantees: nil,
	Contract: "hosts/wire/CONTRACTS.md#context-and-prompt", Guarantee: "Persistent provider overflow MUST fail with a resumable checkpoint.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		// The third request still counts over hard input after the one
		// forced compaction: the execution fails CONTEXT_BUDGET with a
		// failure checkpoint that keeps the task, the write and the
		// workspace fingerprint; the resume starts from it and never
		// writes again (catches overflow-unbounded-recount).
		"persistent-overflow.json": kit.On("L26", func(o *kit.Outcome) {
			Expect(o.Saved(checkpoint.ReasonProviderOverflow)).To(HaveLen(1), "%s: a persistent overflow gets exactly one forced compaction", o.File)
			cps := o.Saved(checkpoint.ReasonFailure)
			Expect(cps).To(HaveLen(1), "%s: the failed execution must leave exactly one failure checkpoint", o.File)
			cp := cps[0]
			o.KeepsTask(cp)
			Expect(kit.EditPaths(cp)).To(Equal([]string{"app/greet.js"}), "%s: the failure checkpoint must keep the write made before the overflow", o.File)
			Expect(cp.Workspace.StateFingerprint).NotTo(BeNil(), "%s: the failure checkpoint has no workspace fingerprint, so no resume can verify the workspace against it", o.File)
			Expect(cp.Totals.CompactionCount).To(Equal(int64(1)), "%s: the failure checkpoint must carry the one compaction of the execution", o.File)
			o.CarriesTaskAndCheckpoint(o.FirstRequestOf(2), cp)
			o.ExecutedOnce("26-write", 1)
		}),
	})
})

var _ = matrix.DescribeItem(matrix.Item{
	ID: 36, Name: "repeated-compaction", Area: "model", Title: "repeated provider compaction preserves the task and accumulated evidence",
	Scope: matrix.ScopeCore, Tools: []string{"workspace.list", "workspace.write", "project.validate", "catalog.search", "git.exec"}, Guarantees: nil,
	Contract: "hosts/wire/CONTRACTS.md#context-and-prompt", Guarantee: "Repeated compaction MUST keep the original task and the accumulated write, validation and final-diff evidence.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		// Four provider overflows, after the write, the validation, the
		// tool search and the diff review: each checkpoint keeps the task
		// and everything the one before held, the last holds the write,
		// the passed validation and the diff review, and each next request
		// carries the task as the user's request and that checkpoint
		// (catches compaction-drops-task).
		"four-compactions.json": kit.On("L36", func(o *kit.Outcome) {
			cps := o.Saved(checkpoint.ReasonProviderOverflow)
			Expect(cps).To(HaveLen(4), "%s: four provider overflows must leave four provider_overflow checkpoints", o.File)
			for i, cp := range cps {
				o.KeepsTask(cp)
				Expect(cp.Totals.CompactionCount).To(Equal(int64(i+1)), "%s: provider_overflow checkpoint %d must count %d compactions", o.File, i+1, i+1)
				o.CarriesTaskAndCheckpoint(o.RequestAfter(cp), cp)
				if i == 0 {
					continue
				}
				prev := cps[i-1]
				Expect(kit.EditPaths(cp)).To(ContainElements(kit.EditPaths(prev)), "%s: provider_overflow checkpoint %d lost write evidence checkpoint %d held", o.File, i+1, i)
				Expect(validationIDs(cp)).To(ContainElements(validationIDs(prev)), "%s: provider_overflow checkpoint %d lost validation evidence checkpoint %d held", o.File, i+1, i)
				if prev.CompletionEvidence.DiffReview != nil {
					Expect(cp.CompletionEvidence.DiffReview).NotTo(BeNil(), "%s: provider_overflow checkpoint %d lost the final diff review checkpoint %d held", o.File, i+1, i)
				}
			}
			last := cps[3]
			Expect(kit.EditPaths(last)).To(Equal([]string{"generated.txt"}), "%s: the last provider_overflow checkpoint must keep the write of generated.txt", o.File)
			Expect(last.Validation).To(ContainElement(HaveField("Status", checkpoint.ValidationPassed)), "%s: the last provider_overflow checkpoint must keep the passed validation", o.File)
			Expect(last.CompletionEvidence.DiffReview).NotTo(BeNil(), "%s: the last provider_overflow checkpoint must keep the final diff review", o.File)
		}),
	})
})

// validationIDs returns the IDs of cp's validation records, in order.
func validationIDs(cp checkpoint.Checkpoint) []string {
	out := []string{}
	for _, v := range cp.Validation {
		out = append(out, v.ID)
	}
	return out
}

// accumulatedPageBytes is how many content bytes item 38's four pages
// need in all to pass the core's tool-result threshold before the last
// request (16000 tokens, about 39000 characters of JSON at 2.8 characters
// a token with the estimator's overhead of 1.15) on a model window of
// 128000 tokens, with a margin.
const accumulatedPageBytes = 44000

var _ = matrix.DescribeItem(matrix.Item{
	ID: 38, Name: "oversized-tool-output", Area: "model", Title: "oversized accumulated tool output checkpoints before the next model request",
	Scope: matrix.ScopeBoth, Tools: []string{"workspace.read"}, Guarantees: []string{"W5"},
	Contract: "hosts/wire/CONTRACTS.md#context-and-prompt", Guarantee: "Oversized accumulated tool output MUST checkpoint before the next request, keeping the task and checkpoint hash.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		// Four pages of one log, each read with maxBytes 16000 of a longer
		// range: the host answers each within the bound and says it
		// truncated (W5, catches read-ignores-max-bytes); the pages
		// accumulate past the tool-result threshold, and the core saves a
		// tool_result_pressure checkpoint holding every read so far before
		// the next request, which carries the task and that checkpoint
		// (catches tool-pressure-skip-checkpoint).
		"accumulated-reads.json": kit.On("W5 L38", func(o *kit.Outcome) {
			total := 0
			for _, id := range []string{"38-read-1", "38-read-2", "38-read-3", "38-read-4"} {
				content, ok := o.ContentOf(id)["content"].(string)
				Expect(ok).To(BeTrue(), "%s: the host's answer to %s has no content string", o.File, id)
				Expect(len(content)).To(BeNumerically("<=", 16000), "%s: the host answered %s with %d content bytes; read_file asked for at most 16000", o.File, id, len(content))
				total += len(content)
			}
			// A host may read less than maxBytes at a time (its own limit);
			// pages that small never reach the tool-result threshold.
			if total < accumulatedPageBytes {
				kit.Unchecked(fmt.Sprintf("%s: the host's read limit kept the four pages to %d bytes in all, under the %d the tool-result threshold needs", o.File, total, accumulatedPageBytes))
				return
			}
			cps := o.Saved(checkpoint.ReasonToolResultPressure)
			Expect(cps).NotTo(BeEmpty(), "%s: the accumulated pages must force a tool_result_pressure checkpoint", o.File)
			cp := cps[0]
			o.KeepsTask(cp)
			next := o.RequestAfter(cp)
			Expect(cp.Totals.ToolCalls).To(Equal(int64(next.Request-1)), "%s: the tool_result_pressure checkpoint must hold every read made before model request %d", o.File, next.Request)
			o.CarriesTaskAndCheckpoint(next, cp)
		}),
	})
})
