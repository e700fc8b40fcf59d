package items

import (
	"fmt"
	"github.com/galaxy-stack/conform/matrix"
	"github.com/galaxy-stack/conform/matrix/kit"
	. "github.com/onsi/gomega"
	"strings"
)

// Item 14: each scenario runs once as every scenario does (a temporary
// directory named conform-run-*, the harness's environment, the virtual
// clock at 0), then a second time isolated from the first in every way a
// run may not depend on: a directory of another name and depth, another
// TZ, the host's environment in reverse order, the virtual clock years
// later. Both runs must give the same replay hash; otherwise the spec names
// the first divergent transcript event and shows its diff.
var _ = matrix.DescribeItem(matrix.Item{
	ID: 14, Name: "replay-hash", Area: "runtime", Title: "deterministic replay hash across two isolated runs",
	Scope: matrix.ScopeBoth, Tools: []string{"workspace.list", "workspace.read", "workspace.write", "project.validate", "git.exec", "task.checkpoint"}, Guarantees: []string{"S3"},
	Contract: "hosts/wire/CONTRACTS.md#checkpoint-and-resume", Guarantee: "Two isolated runs of the same scenario MUST give the same replay hash.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		"list-read.json":           kit.On("S3 L14", kit.SecondRunAgrees),
		"write-validate-diff.json": kit.On("S3 L14", kit.SecondRunAgrees),
		"fresh-host-resume.json":   kit.On("S3 L14", kit.SecondRunAgrees),
	})
	traceKeepsIDs(c)
})

// Item 42: how a context limit and a storage failure end a run. The
// oracle checks the error code and that no model request was sent; the
// item checks the core's message names the context manager's budget code
// or the checkpoint store, and, for the storage failure, what a fresh host
// on the run's store holds afterwards.
var _ = matrix.DescribeItem(matrix.Item{
	ID: 42, Name: "budget-vs-persistence", Area: "runtime", Title: "context limits report CONTEXT_BUDGET, storage failures PERSISTENCE_ERROR",
	Scope: matrix.ScopeBoth, Tools: []string{"workspace.list"}, Guarantees: []string{"S4"},
	Contract: "hosts/wire/CONTRACTS.md#context-and-prompt", Guarantee: "Context assembly limits MUST report CONTEXT_BUDGET and durable-storage failures PERSISTENCE_ERROR, never a provider failure.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		// A 4096-token window cannot hold the mandatory context: the
		// context manager's budget error, reported as CONTEXT_BUDGET
		// "<code>: <message>" (catches budget-as-provider-error).
		"context-too-small.json": kit.On("L42", func(o *kit.Outcome) {
			code, _, _ := strings.Cut(o.ErrorMessage, ":")
			Expect(code).To(BeElementOf("CHECKPOINT_UNAVAILABLE", "HARD_LIMIT", "MANDATORY_CONTEXT_TOO_LARGE", "TOOL_DEFINITIONS_TOO_LARGE"),
				"%s: a context assembly limit must be reported with the context manager's budget code, got %q", o.File, o.ErrorMessage)
		}),
		// The provider count stays over hard input after the one forced
		// compaction: CONTEXT_BUDGET with the count and the limit
		// (catches budget-as-provider-error).
		"persistent-count.json": kit.On("L42", func(o *kit.Outcome) {
			Expect(o.ErrorMessage).To(MatchRegexp(`^Provider token count \d+ remains above hard input \d+ after compaction\.$`),
				"%s: a provider count over hard input after the forced compaction must be reported as a context limit", o.File)
		}),
		// The store refuses the provider_overflow checkpoint: the run
		// fails PERSISTENCE_ERROR before any model request (catches
		// persistence-as-provider-error), and a fresh host holds the
		// failure checkpoint and the run's trace, nothing of the refused
		// put (catches store-ack-without-persist, trace-flush-not-durable).
		"checkpoint-put-fails.json": kit.On("S4 L42", func(o *kit.Outcome) {
			Expect(o.ErrorMessage).To(HavePrefix("Checkpoint persistence failed"), "%s: the refused checkpoint put must be reported as a checkpoint persistence failure", o.File)
			failedClosed(kit.DurableAfter{Checkpoints: []string{"failure"}})(o)
		}),
	})
})

var _ = matrix.DescribeItem(matrix.Item{
	ID: 43, Name: "multi-call-order", Area: "runtime", Title: "multi-call rounds preserve emitted order and same-name correlations",
	Scope: matrix.ScopeBoth, Tools: []string{"workspace.read"}, Guarantees: []string{"M3"},
	Contract: "hosts/wire/CONTRACTS.md#batches", Guarantee: "Multi-call rounds MUST be dispatched in emitted order with their correlations kept.",
}, func(c *kit.TestContext) {
	// inOrder asserts the host received the batch in emitted order, each
	// call under its own toolCallId with its own idempotency key (catches
	// batch-dispatch-reversed at the wire), and that every approval
	// request, cancellation and failure the host sent names its own call
	// or request (catches approval-first-context,
	// approval-key-as-request-id, cancel-names-call,
	// failure-names-previous-call).
	inOrder := func(ids ...string) kit.Check {
		return func(o *kit.Outcome) {
			var got []string
			keys := map[string]string{}
			for _, c := range o.Executes() {
				got = append(got, c.CallID)
				if c.IdempotencyKey != "" {
					Expect(keys).NotTo(HaveKey(c.IdempotencyKey), "%s: %s reuses the idempotency key of %s", o.File, c.CallID, keys[c.IdempotencyKey])
					keys[c.IdempotencyKey] = c.CallID
				}
			}
			Expect(got).To(HaveLen(len(ids)), "%s: the host received calls %v", o.File, got)
			Expect(got[:len(ids)]).To(Equal(ids), "%s: the host must receive the batch's calls in the order the model emitted them", o.File)
			o.CallsCorrelated()
		}
	}
	c.Scenarios(map[string]kit.Case{
		"same-name-reads.json": kit.On("M3 L43", inOrder("list", "read-alpha", "read-beta")),
		"write-then-read.json": kit.On("M3 L43", inOrder("write-notes", "read-notes", "read-readme", "review")),
		// Two writes that each need approval under strict, then two
		// failures in one round.
		"approvals-and-failures.json": kit.On("M3 L43", inOrder("write-a", "write-b", "read-a", "read-missing-one", "read-missing-two", "review")),
		// Two approval requests of one round that time out: the host
		// cancels each by its own id.
		"approval-timeouts.json": kit.On("M3 L43", inOrder("list", "write-one", "write-two")),
	})
})

var _ = matrix.DescribeItem(matrix.Item{
	ID: 44, Name: "batch-preflight", Area: "runtime", Title: "duplicate IDs, budget overflow and inactive tools fail before side effects",
	Scope: matrix.ScopeCore, Tools: []string{"workspace.write"}, Guarantees: nil,
	Contract: "hosts/wire/CONTRACTS.md#batches", Guarantee: "Duplicate or reused IDs, budget overflow and inactive same-batch tools MUST fail before the batch's first side effect.",
}, func(c *kit.TestContext) {
	// refused asserts which calls reached the host and which preflight step
	// refused the batch.
	refused := func(message string, reached ...string) kit.Check {
		return func(o *kit.Outcome) {
			o.Dispatched(reached...)
			Expect(o.ErrorMessage).To(ContainSubstring(message), "%s: the batch must be refused by its preflight step", o.File)
		}
	}
	c.Scenarios(map[string]kit.Case{
		"duplicate-ids.json":    kit.On("L44", refused("duplicate or empty toolCallId")),
		"reused-id.json":        kit.On("L44", refused("toolCallId first was already used in this run", "list_files")),
		"budget-overflow.json":  kit.On("L44", refused("maxToolCalls=2")),
		"budget-remaining.json": kit.On("L44", refused("maxToolCalls=2", "list_files")),
		"unknown-tool.json":     kit.On("L44", refused("Tool delete_file was not active")),
		"inactive-in-mode.json": kit.On("L44", refused("Tool write_file was not active")),
	})
})

var _ = matrix.DescribeItem(matrix.Item{
	ID: 45, Name: "batch-stop-policy", Area: "runtime", Title: "structured failures continue; unknown outcomes, cancellation, pause and approval stop",
	Scope: matrix.ScopeCore, Tools: []string{"workspace.write", "command.run"}, Guarantees: nil,
	Contract: "hosts/wire/CONTRACTS.md#batches", Guarantee: "Structured failures MUST continue to later calls; unknown outcomes, cancellation, pause and pending approval MUST follow the batch stop policy.",
}, func(c *kit.TestContext) {
	stops := func(reached ...string) kit.Check { return func(o *kit.Outcome) { o.Dispatched(reached...) } }
	c.Scenarios(map[string]kit.Case{
		"cancel-stops.json":                kit.On("L45", stops("read_file")),
		"pause-stops.json":                 kit.On("L45", stops("read_file")),
		"output-schema-failure-stops.json": kit.On("L45", stops("read_file", "read_file")),
		// The calls the pending approval blocked are recorded as failed,
		// without an argument digest: they never ran.
		"pending-approval-blocks.json": kit.On("L45", func(o *kit.Outcome) {
			o.Dispatched("read_file")
			cp, ok := o.CheckpointOf("pause")
			if !ok {
				return
			}
			blocked := 0
			for _, c := range cp.LastToolCalls {
				if c.ToolCallID == "write" || c.ToolCallID == "list" {
					blocked++
					Expect(string(c.Outcome)).To(Equal("failed"), "%s: the pause checkpoint records blocked call %s as %s", o.File, c.ToolCallID, c.Outcome)
					Expect(c.ArgumentDigest).To(BeEmpty(), "%s: blocked call %s never ran and has no argument digest", o.File, c.ToolCallID)
				}
			}
			Expect(blocked).To(Equal(2), "%s: the pause checkpoint must record both blocked calls, write and list", o.File)
		}),
		"structured-failure-continues.json": kit.On("L45", stops("read_file", "read_file")),
		// The unknown outcome stops the batch and is durable (catches
		// unknown-outcome-as-failure even without a later call).
		"unknown-outcome-stops.json": kit.On("L45", func(o *kit.Outcome) {
			o.Dispatched("read_file", "write_file")
			cp, ok := o.CheckpointOf("failure")
			if !ok {
				return
			}
			var outcomes []string
			for _, c := range cp.LastToolCalls {
				outcomes = append(outcomes, string(c.Outcome))
			}
			Expect(outcomes).To(Equal([]string{"succeeded", "unknown"}), "%s: the failure checkpoint must record the read as succeeded and the write as unknown", o.File)
			Expect(cp.OpenProblems).To(ContainElement(ContainSubstring("outcome is unknown")), "%s: the failure checkpoint must keep the unknown outcome as an open problem", o.File)
		}),
	})
})

var _ = matrix.DescribeItem(matrix.Item{
	ID: 46, Name: "observation-progress", Area: "runtime", Title: "identical observations cannot manufacture progress",
	Scope: matrix.ScopeBoth, Tools: []string{"workspace.list", "workspace.write", "project.validate", "git.exec", "task.checkpoint"}, Guarantees: []string{"W4", "W6"},
	Contract: "hosts/wire/CONTRACTS.md#no-progress-guards", Guarantee: "Repeated identical validation and diff observations MUST NOT count as progress.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		// The host attests the same passing validation three times and
		// fingerprints the unchanged workspace alike each time; the state
		// version does not move, so the fourth identical run is blocked
		// before dispatch (catches
		// guard-counts-identical-observation-as-progress, and
		// fingerprint-capture-time: a fingerprint that changes with every
		// capture makes each re-run look new).
		"identical-validations.json": kit.On("W6 L46", func(o *kit.Outcome) {
			attestedInOrder(o, []string{"46-validate-1", "46-validate-2", "46-validate-3"}, []string{"passed", "passed", "passed"})
			blockedBeforeDispatch(o, "46-validate-4")
		}),
		// A task-state read alternates with a review of the unchanged,
		// empty diff: the host hashes the diff alike each time, the
		// re-reviews move no state, and the read that repeats the cycle
		// is blocked before dispatch (catches
		// guard-counts-identical-observation-as-progress, and
		// diff-hash-capture-time: a diff hash that changes with the time
		// makes each re-review look new).
		"identical-diffs.json": kit.On("W4 L46", func(o *kit.Outcome) {
			var hashes []string
			for _, id := range []string{"46-review-diff-1", "46-review-diff-2", "46-review-diff-3"} {
				r := o.Answer(id)
				Expect(r.Effects).NotTo(BeNil(), "%s: %s attests no effects", o.File, id)
				Expect(r.Effects.DiffReview).NotTo(BeNil(), "%s: %s, a complete diff, carries no diffReview evidence", o.File, id)
				hashes = append(hashes, r.Effects.DiffReview.DiffHash)
			}
			Expect(hashes).To(HaveEach(hashes[0]), "%s: three reviews of one unchanged diff attest the diff hashes %v; the same diff must hash alike", o.File, hashes)
			blockedBeforeDispatch(o, "46-review-state-4")
		}),
	})
})

var _ = matrix.DescribeItem(matrix.Item{
	ID: 47, Name: "alternating-cycles", Area: "runtime", Title: "alternating successful tool cycles are blocked before dispatch",
	Scope: matrix.ScopeCore, Tools: []string{"workspace.list", "task.checkpoint"}, Guarantees: nil,
	Contract: "hosts/wire/CONTRACTS.md#no-progress-guards", Guarantee: "Alternating tool cycles MUST be blocked before dispatch and lead to bounded finalization or a durable pause.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		// A,B,A,B succeed; the A that repeats the cycle never reaches the
		// host, and the inspected read-only run, whose evidence is
		// enough, finalizes in a tool-free turn (catches
		// guard-skip-tool-cycle).
		"cycle-then-finalize.json": kit.On("L47", func(o *kit.Outcome) {
			blockedBeforeDispatch(o, "47-fin-a-3")
			toolFreeRequests(o, 7)
		}),
		// With a required criterion open, every call that continues the
		// cycle is blocked until the run pauses with a durable checkpoint
		// that counts the episodes.
		"cycle-then-pause.json": kit.On("L47", func(o *kit.Outcome) {
			blockedBeforeDispatch(o, "47-pause-a-3", "47-pause-b-3", "47-pause-a-4")
			cp, ok := o.CheckpointOf("pause")
			if !ok {
				return
			}
			Expect(cp.NoProgress).NotTo(BeNil(), "%s: the pause checkpoint has no noProgress state", o.File)
			Expect(cp.NoProgress.Episodes).To(BeNumerically(">=", 2), "%s: the pause checkpoint counts %d no-progress episodes; the blocked cycle made at least two", o.File, cp.NoProgress.Episodes)
		}),
	})
})

var _ = matrix.DescribeItem(matrix.Item{
	ID: 48, Name: "finalization-turns", Area: "runtime", Title: "finalization turns expose no tools and reject provider tool calls",
	Scope: matrix.ScopeCore, Tools: []string{"workspace.list", "workspace.read", "workspace.grep", "workspace.write", "project.validate", "git.exec"}, Guarantees: nil,
	Contract: "hosts/wire/CONTRACTS.md#context-and-prompt", Guarantee: "Finalization turns MUST offer no tools and reject provider tool calls without dispatch.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		// Inspect, edit, validate, review: the two turns after the review
		// offer no tools (catches finalization-offers-tools), and the
		// write the model asks for in the first of them never reaches the
		// host (catches finalization-dispatches-tool-call).
		"evidence-ready-tool-call.json": kit.On("L48", func(o *kit.Outcome) {
			toolFreeRequests(o, 6, 7)
			notDispatched(o, "48-final-write")
			Expect(o.RejectionCodes()).To(Equal([][]string{{"FINALIZATION_TOOL_CALLS_IGNORED"}}),
				"%s: the tool call of the finalization turn must be rejected once as FINALIZATION_TOOL_CALLS_IGNORED, and the final report accepted", o.File)
		}),
		// A documentation write needs no validation, so after the review
		// the evidence is ready: both later turns are tool-free, none of
		// their three calls reaches the host, and the second rejection
		// spends maxCompletionRejections 2 (the oracle asserts the
		// INVALID_MODEL_STREAM end).
		"rejection-budget.json": kit.On("L48", func(o *kit.Outcome) {
			toolFreeRequests(o, 4, 5)
			notDispatched(o, "48-budget-read", "48-budget-list-again", "48-budget-read-again")
			Expect(o.RejectionCodes()).To(Equal([][]string{{"FINALIZATION_TOOL_CALLS_IGNORED"}, {"FINALIZATION_TOOL_CALLS_IGNORED"}}),
				"%s: each finalization turn with tool calls must be one FINALIZATION_TOOL_CALLS_IGNORED rejection", o.File)
		}),
		// A review of several read-only steps is not cut short: every
		// request offers tools.
		"multi-step-review.json": kit.On("L48", func(o *kit.Outcome) {
			toolFreeRequests(o)
		}),
	})
})

var _ = matrix.DescribeItem(matrix.Item{
	ID: 21, Name: "identical-stale-edit", Area: "runtime", Title: "identical stale edits are blocked without changing file content or inode",
	Scope: matrix.ScopeBoth, Tools: []string{"workspace.edit"}, Guarantees: []string{"W3"},
	Contract: "hosts/wire/tools/workspace.edit.md#choices", Guarantee: "A repeated identical stale edit MUST be blocked without changing the file's bytes or inode.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		// The host refuses the first two PRECONDITION_FAILED and keeps the
		// file's inode (catches replace-inode-on-failure); the core blocks
		// the other three before dispatch (catches
		// guard-skip-identical-repeat).
		"identical-stale-edits.json": kit.On("W3 L21", func(o *kit.Outcome) {
			o.Dispatched("edit_file", "edit_file")
			for _, id := range []string{"21-stale-1", "21-stale-2"} {
				r := o.Answer(id)
				Expect(r.OK).To(BeFalse(), "%s: the host accepted the stale edit %s", o.File, id)
				Expect(r.Error).NotTo(BeNil(), "%s: the host's refusal of %s carries no error", o.File, id)
				Expect(r.Error.Code).To(Equal("PRECONDITION_FAILED"), "%s: the host refused the stale edit %s with %s", o.File, id, r.Error.Code)
			}
			o.KeptInode("safe.txt")
		}),
	})
})

var _ = matrix.DescribeItem(matrix.Item{
	ID: 22, Name: "varied-stale-edit", Area: "runtime", Title: "varied stale edit arguments on one path/state still reach a bounded pause",
	Scope: matrix.ScopeCore, Tools: []string{"workspace.edit"}, Guarantees: nil,
	Contract: "hosts/wire/CONTRACTS.md#no-progress-guards", Guarantee: "Varied failed edits on one path and state MUST reach a bounded pause.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		// Five different stale edits of safe.txt all reach the host and
		// fail; the third to fifth are incidents, and the run pauses after
		// the recovery round (catches guard-skip-failed-family).
		"varied-stale-edits.json": kit.On("L22", func(o *kit.Outcome) {
			Expect(o.ExecuteCountIn(1)).To(Equal(5), "%s: every varied stale edit must reach the host", o.File)
			cp, ok := o.CheckpointOf("pause")
			if !ok {
				return
			}
			Expect(cp.NoProgress).NotTo(BeNil(), "%s: the pause checkpoint has no noProgress state", o.File)
			var counts []int64
			for _, f := range cp.NoProgress.FailedToolFamilies {
				if strings.HasPrefix(f.Key, "workspace.edit:safe.txt:") {
					counts = append(counts, f.Count)
				}
			}
			Expect(counts).To(Equal([]int64{5}), "%s: the pause checkpoint must count the five failed edits of safe.txt as one family on one state", o.File)
		}),
	})
})

var _ = matrix.DescribeItem(matrix.Item{
	ID: 23, Name: "write-hash-cycle", Area: "runtime", Title: "A→B→A→B write-hash cycles pause rather than oscillate indefinitely",
	Scope: matrix.ScopeCore, Tools: []string{"workspace.write"}, Guarantees: nil,
	Contract: "hosts/wire/CONTRACTS.md#no-progress-guards", Guarantee: "Write-hash cycles MUST pause the run rather than oscillate.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		// start→A→B→A→B→A: the third write returns to A, the fourth to B
		// (the recovery round), the fifth pauses the run (catches
		// guard-skip-write-hash-cycle).
		"toggled-writes.json": kit.On("L23", func(o *kit.Outcome) {
			var after []string
			for i := 1; i <= 5; i++ {
				id := fmt.Sprintf("23-write-%d", i)
				w := o.Answer(id)
				Expect(w.Effects).NotTo(BeNil(), "%s: %s attests no effects", o.File, id)
				Expect(w.Effects.Writes).To(HaveLen(1), "%s: %s must attest one write of mode.txt", o.File, id)
				Expect(w.Effects.Writes[0].AfterHash).NotTo(BeNil(), "%s: %s attests a removal of mode.txt", o.File, id)
				after = append(after, *w.Effects.Writes[0].AfterHash)
			}
			Expect(after[0]).NotTo(Equal(after[1]), "%s: the two contents must hash differently", o.File)
			Expect([]string{after[2], after[4], after[3]}).To(Equal([]string{after[0], after[0], after[1]}),
				"%s: the writes must alternate between the two content hashes", o.File)
		}),
	})
})

var _ = matrix.DescribeItem(matrix.Item{
	ID: 24, Name: "repeated-validation-failure", Area: "runtime", Title: "repeated validation failure on one workspace fingerprint is bounded",
	Scope: matrix.ScopeCore, Tools: []string{"project.validate"}, Guarantees: nil,
	Contract: "hosts/wire/CONTRACTS.md#no-progress-guards", Guarantee: "Repeated validation failure on one fingerprint MUST be bounded.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		// The same test fails five times on an unchanged workspace (each
		// call with other arguments, so the identical-repeat guard stays
		// out of it); the run pauses (catches
		// guard-skip-repeated-validation).
		"unchanged-failures.json": kit.On("L24", func(o *kit.Outcome) {
			for i := 1; i <= 5; i++ {
				attested(o, fmt.Sprintf("24-validate-%d", i), "failed")
			}
			Expect(o.RejectionCodes()).To(BeEmpty(), "%s: the run must pause before any final report", o.File)
		}),
	})
})

var _ = matrix.DescribeItem(matrix.Item{
	ID: 31, Name: "counters-survive-resume", Area: "runtime", Title: "exact-repeat and failed-mutation-family counters survive pause/resume",
	Scope: matrix.ScopeCore, Tools: []string{"workspace.edit"}, Guarantees: nil,
	Contract: "hosts/wire/CONTRACTS.md#no-progress-guards", Guarantee: "No-progress counters MUST survive pause and resume.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		// Two identical stale edits, a pause, a fresh-host resume: the
		// third identical edit is blocked before dispatch (catches
		// resume-drops-repeat-count).
		"identical-repeat-resume.json": kit.On("L31", func(o *kit.Outcome) {
			Expect(o.ExecuteCountIn(1)).To(Equal(2), "%s: both identical stale edits before the pause must reach the host", o.File)
			o.NoExecuteIn(2)
			cp, ok := o.FirstCheckpointOf("pause")
			if !ok {
				return
			}
			Expect(cp.NoProgress).NotTo(BeNil(), "%s: the first pause checkpoint has no noProgress state", o.File)
			p := cp.NoProgress.PreviousTool
			Expect(p).NotTo(BeNil(), "%s: the first pause checkpoint does not record the repeated edit_file call", o.File)
			Expect([]any{p.Name, p.Repetitions}).To(Equal([]any{"edit_file", int64(2)}), "%s: the first pause checkpoint must record edit_file repeated twice", o.File)
		}),
		// Two varied stale edits, a pause, a fresh-host resume: the third
		// to fifth continue the family count, so the run pauses again
		// after three more (catches resume-drops-failed-families).
		"failed-family-resume.json": kit.On("L31", func(o *kit.Outcome) {
			Expect([]int{o.ExecuteCountIn(1), o.ExecuteCountIn(2)}).To(Equal([]int{2, 3}),
				"%s: two varied stale edits must reach the first host process and three the resumed one", o.File)
			cp, ok := o.FirstCheckpointOf("pause")
			if !ok {
				return
			}
			Expect(cp.NoProgress).NotTo(BeNil(), "%s: the first pause checkpoint has no noProgress state", o.File)
			var counts []int64
			for _, f := range cp.NoProgress.FailedToolFamilies {
				if strings.HasPrefix(f.Key, "workspace.edit:safe.txt:") {
					counts = append(counts, f.Count)
				}
			}
			Expect(counts).To(Equal([]int64{2}), "%s: the first pause checkpoint must count the two failed edits of safe.txt as one family", o.File)
		}),
	})
})
