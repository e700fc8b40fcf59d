package matrix

import (
	. "github.com/onsi/gomega"
)

var _ = describeItem(43, func(c *TestContext) {
	// inOrder asserts the host received the batch in emitted order, each
	// call under its own toolCallId with its own idempotency key (catches
	// batch-dispatch-reversed at the wire).
	inOrder := func(ids ...string) check {
		return func(o *outcome) {
			var got []string
			keys := map[string]string{}
			for _, c := range o.executes() {
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
	c.scenarios(map[string]check{
		"same-name-reads.json": inOrder("list", "read-alpha", "read-beta"),
		"write-then-read.json": inOrder("write-notes", "read-notes", "read-readme", "review"),
	})
})

var _ = describeItem(44, func(c *TestContext) {
	// refused asserts which calls reached the host and which preflight step
	// refused the batch.
	refused := func(message string, reached ...string) check {
		return func(o *outcome) {
			o.dispatched(reached...)
			Expect(o.ErrorMessage).To(ContainSubstring(message), "%s: the batch must be refused by its preflight step", o.File)
		}
	}
	c.scenarios(map[string]check{
		"duplicate-ids.json":    refused("duplicate or empty toolCallId"),
		"reused-id.json":        refused("toolCallId first was already used in this run", "list_files"),
		"budget-overflow.json":  refused("maxToolCalls=2"),
		"budget-remaining.json": refused("maxToolCalls=2", "list_files"),
		"unknown-tool.json":     refused("Tool delete_file was not active"),
		"inactive-in-mode.json": refused("Tool write_file was not active"),
	})
})

var _ = describeItem(45, func(c *TestContext) {
	stops := func(reached ...string) check { return func(o *outcome) { o.dispatched(reached...) } }
	c.scenarios(map[string]check{
		"cancel-stops.json":                stops("read_file"),
		"pause-stops.json":                 stops("read_file"),
		"output-schema-failure-stops.json": stops("read_file", "read_file"),
		// The calls the pending approval blocked are recorded as failed,
		// without an argument digest: they never ran.
		"pending-approval-blocks.json": func(o *outcome) {
			o.dispatched("read_file")
			cp, ok := o.checkpointOf("pause")
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
		},
		"structured-failure-continues.json": stops("read_file", "read_file"),
		// The unknown outcome stops the batch and is durable (catches
		// unknown-outcome-as-failure even without a later call).
		"unknown-outcome-stops.json": func(o *outcome) {
			o.dispatched("read_file", "write_file")
			cp, ok := o.checkpointOf("failure")
			if !ok {
				return
			}
			var outcomes []string
			for _, c := range cp.LastToolCalls {
				outcomes = append(outcomes, string(c.Outcome))
			}
			Expect(outcomes).To(Equal([]string{"succeeded", "unknown"}), "%s: the failure checkpoint must record the read as succeeded and the write as unknown", o.File)
			Expect(cp.OpenProblems).To(ContainElement(ContainSubstring("outcome is unknown")), "%s: the failure checkpoint must keep the unknown outcome as an open problem", o.File)
		},
	})
})
