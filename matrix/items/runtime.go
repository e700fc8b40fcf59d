package items

import (
	"github.com/galaxy-stack/conform/matrix"
	"github.com/galaxy-stack/conform/matrix/kit"
	. "github.com/onsi/gomega"
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
})

var _ = matrix.PlanItem(matrix.Item{
	ID: 42, Name: "budget-vs-persistence", Area: "runtime", Title: "context limits report CONTEXT_BUDGET, storage failures PERSISTENCE_ERROR",
	Scope: matrix.ScopeCore, Tools: nil, Guarantees: nil,
	Contract: "hosts/wire/CONTRACTS.md#context-and-prompt", Guarantee: "Context assembly limits MUST report CONTEXT_BUDGET and durable-storage failures PERSISTENCE_ERROR, never a provider failure.",
})

var _ = matrix.DescribeItem(matrix.Item{
	ID: 43, Name: "multi-call-order", Area: "runtime", Title: "multi-call rounds preserve emitted order and same-name correlations",
	Scope: matrix.ScopeCore, Tools: []string{"workspace.read"}, Guarantees: []string{"M3"},
	Contract: "hosts/wire/CONTRACTS.md#batches", Guarantee: "Multi-call rounds MUST be dispatched in emitted order with their correlations kept.",
}, func(c *kit.TestContext) {
	// inOrder asserts the host received the batch in emitted order, each
	// call under its own toolCallId with its own idempotency key (catches
	// batch-dispatch-reversed at the wire).
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
		}
	}
	c.Scenarios(map[string]kit.Case{
		"same-name-reads.json": kit.On("M3 L43", inOrder("list", "read-alpha", "read-beta")),
		"write-then-read.json": kit.On("M3 L43", inOrder("write-notes", "read-notes", "read-readme", "review")),
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

var _ = matrix.PlanItem(matrix.Item{
	ID: 46, Name: "observation-progress", Area: "runtime", Title: "identical observations cannot manufacture progress",
	Scope: matrix.ScopeCore, Tools: []string{"project.validate", "git.exec"}, Guarantees: nil,
	Contract: "hosts/wire/CONTRACTS.md#no-progress-guards", Guarantee: "Repeated identical validation and diff observations MUST NOT count as progress.",
})

var _ = matrix.PlanItem(matrix.Item{
	ID: 47, Name: "alternating-cycles", Area: "runtime", Title: "alternating successful tool cycles are blocked before dispatch",
	Scope: matrix.ScopeCore, Tools: []string{"workspace.read"}, Guarantees: nil,
	Contract: "hosts/wire/CONTRACTS.md#no-progress-guards", Guarantee: "Alternating tool cycles MUST be blocked before dispatch and lead to bounded finalization or a durable pause.",
})

var _ = matrix.PlanItem(matrix.Item{
	ID: 48, Name: "finalization-turns", Area: "runtime", Title: "finalization turns expose no tools and reject provider tool calls",
	Scope: matrix.ScopeCore, Tools: nil, Guarantees: nil,
	Contract: "hosts/wire/CONTRACTS.md#context-and-prompt", Guarantee: "Finalization turns MUST offer no tools and reject provider tool calls without dispatch.",
})
