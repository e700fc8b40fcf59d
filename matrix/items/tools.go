package items

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/matrix"
	"github.com/galaxy-stack/conform/matrix/kit"
	"github.com/galaxy-stack/conform/matrix/session"
	. "github.com/onsi/gomega"
)

var _ = matrix.DescribeItem(matrix.Item{
	ID: 3, Name: "write-validate-diff", Area: "tools", Title: "write followed by scoped validation and hashed final diff",
	Scope: matrix.ScopeBoth, Tools: []string{"workspace.write", "project.validate", "git.exec"}, Guarantees: []string{"T6", "T9", "T10", "T11", "W6", "T5", "T7"},
	Contract: "hosts/wire/CONTRACTS.md#completion-gate", Guarantee: "A host MUST attest writes, scoped validation results and a complete hashed diff review so that the completion gate can accept the run.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		// A scoped validation is attested as scoped, and the final diff is
		// hashed.
		"happy-path.json": kit.On("T6 W6 L3", func(o *kit.Outcome) {
			v := o.Answer("03-happy-validate")
			Expect(v.EffectsAuthority).To(Equal("host"), "%s: validate_project's effects must be host-attested", o.File)
			Expect(v.Effects).NotTo(BeNil(), "%s: validate_project attests no effects", o.File)
			Expect(v.Effects.Validations).To(ConsistOf(port.ValidationEntry{ID: "project.validate:test:app", Detail: v.Effects.Validations[0].Detail,
				Scope: "paths", Paths: []string{"app"}, Status: "passed"}),
				"%s: a test run scoped to app/ must be attested as one passed validation of scope paths [app]", o.File)
			d := o.Answer("03-happy-diff")
			Expect(d.Effects).NotTo(BeNil(), "%s: git_operation diff attests no effects", o.File)
			Expect(d.Effects.DiffReview).NotTo(BeNil(), "%s: a complete diff must carry diffReview evidence", o.File)
			Expect(strings.TrimSpace(d.Effects.DiffReview.DiffHash)).NotTo(BeEmpty(), "%s: the diff review must carry its diffHash", o.File)
		}),
		// Derived dependency state is a state change, never a write
		// (catches derived-as-write).
		"derived-cache-rewrite.json": kit.On("T9 T10 L3", func(o *kit.Outcome) {
			v := o.Answer("03-derived-validate")
			Expect(v.Effects).NotTo(BeNil(), "%s: validate_project attests no effects", o.File)
			for _, w := range v.Effects.Writes {
				Expect(derived(w.Path)).To(BeFalse(), "%s: validate_project attests derived dependency state %s as a write", o.File, w.Path)
			}
			Expect(v.Effects.StateVersion).NotTo(BeEmpty(), "%s: a validation that rewrote derived state must advance stateVersion", o.File)
		}),
		// The repository's script is code: the host asked before running it
		// (catches validate-without-approval).
		"unapproved-validation.json": kit.On("T11 L3", func(o *kit.Outcome) {
			n := 0
			for _, a := range o.Approvals {
				if a.CanonicalToolID == "project.validate" {
					n++
				}
			}
			Expect(n).To(Equal(1), "%s: the host must ask the harness exactly once before running the repository's test script; it asked %d times", o.File, n)
		}),
		"diff-before-last-write.json":     kit.On("W6 L3", nil),
		"doc-write-after-validation.json": kit.On("L3", nil),
		"missing-final-fingerprint.json":  kit.On("W6 L3", nil),
		"out-of-scope-write.json":         kit.On("T6 L3", nil),
		"write-after-validation.json":     kit.On("L3", nil),
	})
	commandWritesExact(c)
	validationFromExitStatus(c)
	derivedNeverWritten(c)
	commandOutputNoValidation(c)
})

// violation names the argument each call of item 8's schema scenario
// gets wrong, which the host's error message must name.
func violation(callID string) string {
	return map[string]string{"08-schema-extra": "mode", "08-schema-missing": "precondition", "08-schema-type": "content", "08-schema-edit-extra": "backup"}[callID]
}

// Item 7: every approval outcome other than a grant leaves the call
// unexecuted and says why, for command.run and a write tool alike. The
// fixtures' oracle checks the marker files are absent and the error codes;
// these checks read the wire: what the host asked, what the harness
// answered, and what the host attested.
var _ = matrix.DescribeItem(matrix.Item{
	ID: 7, Name: "approval-outcomes", Area: "tools", Title: "denied, missing, timed-out, and pending approval",
	Scope: matrix.ScopeHost, Tools: []string{"command.run", "workspace.write", "project.validate"}, Guarantees: []string{"T4", "T11", "P4"},
	Contract: "hosts/wire/CONTRACTS.md#approval-flow", Guarantee: "A host MUST apply approval policy before any side effect and MUST report denied, unavailable, timed-out and pending approvals without executing the call.",
}, func(c *kit.TestContext) {
	// refused asserts both calls of a strict-profile scenario asked for
	// approval and were denied with code; answered says what the harness's
	// answers must look like.
	refused := func(prefix, code string, answered func(o *kit.Outcome, a kit.ApprovalAsk)) kit.Check {
		return func(o *kit.Outcome) {
			run, write := prefix+"-run", prefix+"-write"
			for _, a := range o.AskedFor(run, write) {
				answered(o, a)
			}
			o.DeniedWith(run, code)
			o.DeniedWith(write, code)
		}
	}
	c.Scenarios(map[string]kit.Case{
		// The harness answered approved=false: catches
		// execute-before-approval (the marker file exists).
		"denied.json": kit.On("T4 P4 L7", refused("07-denied", "DENIED_BY_HOST", func(o *kit.Outcome, a kit.ApprovalAsk) {
			Expect(a.Answer).NotTo(BeNil(), "%s: the harness did not answer the approval/request for %s", o.File, a.Context.ToolCallID)
			Expect(a.Answer.Approved).To(BeFalse(), "%s: the harness denied %s", o.File, a.Context.ToolCallID)
			Expect(o.Approvals).To(ContainElement(session.Approval{CanonicalToolID: a.CanonicalToolID, ModelName: a.ModelName}),
				"%s: the harness recorded no denial of %s", o.File, a.CanonicalToolID)
		})),
		// The harness has no approver (method not found): catches
		// missing-approver-approves.
		"missing-approver.json": kit.On("T4 P4 L7", refused("07-missing-approver", "DENY_APPROVAL_UNAVAILABLE", noApprover)),
		// Declared scripts without verified containment need approval
		// whatever the profile: catches validate-without-approval.
		"missing-approver-validate.json": kit.On("T4 T11 L7", func(o *kit.Outcome) {
			for _, a := range o.AskedFor("07-validate") {
				noApprover(o, a)
			}
			o.DeniedWith("07-validate", "DENY_APPROVAL_UNAVAILABLE")
		}),
		// The harness never answers: the host must give up after its
		// approval timeout, cancel the request and deny. Catches
		// approval-timeout-approves.
		"timed-out.json": kit.On("T4 P4 L7", refused("07-timed-out", "DENY_APPROVAL_TIMEOUT", func(o *kit.Outcome, a kit.ApprovalAsk) {
			Expect(a.TimeoutMs).To(BeNumerically(">", 0), "%s: approval/request for %s says timeoutMs %d", o.File, a.Context.ToolCallID, a.TimeoutMs)
			Expect(a.TimeoutMs).To(BeNumerically("<=", 150), "%s: approval/request for %s says timeoutMs %d; initialize asked for 150", o.File, a.Context.ToolCallID, a.TimeoutMs)
			Expect(a.Answer).To(BeNil(), "%s: the silent harness answered %s", o.File, a.Context.ToolCallID)
			Expect(o.Approvals).To(ContainElement(session.Approval{CanonicalToolID: a.CanonicalToolID, ModelName: a.ModelName, Unanswered: true}),
				"%s: the harness recorded no unanswered request for %s", o.File, a.CanonicalToolID)
			Expect(a.Canceled).To(BeTrue(), "%s: the host gave up on the approval of %s without sending $/cancelRequest for it; a host that stops waiting must cancel the request so a late answer cannot grant it", o.File, a.Context.ToolCallID)
		})),
		// A pending approval blocks the rest of the batch: neither the
		// command nor the write reaches the host, nothing asks for their
		// approval, and the paused run keeps the approval pending.
		"pending.json": kit.On("T4 L7", func(o *kit.Outcome) {
			o.Dispatched("read_file")
			o.AskedFor()
			cp, ok := o.CheckpointOf("pause")
			if !ok {
				return
			}
			var pending []string
			for _, p := range cp.PendingApprovals {
				pending = append(pending, p.RequestID)
			}
			Expect(pending).To(Equal([]string{"approval-read-1"}), "%s: the pause checkpoint must keep the unresolved approval approval-read-1 pending", o.File)
		}),
	})
	validateAsksEachTime(c)
})

// noApprover asserts the harness answered the approval request a with
// "method not found", as a harness without an approver does, and
// recorded no decision.
func noApprover(o *kit.Outcome, a kit.ApprovalAsk) {
	Expect(a.Error).NotTo(BeNil(), "%s: the harness without an approver answered the approval/request for %s", o.File, a.Context.ToolCallID)
	Expect(o.Approvals).To(BeEmpty(), "%s: the harness without an approver recorded decisions %v", o.File, o.Approvals)
}

var _ = matrix.DescribeItem(matrix.Item{
	ID: 8, Name: "unknown-inactive-invalid-calls", Area: "tools", Title: "unknown/inactive/schema-invalid tool calls",
	Scope: matrix.ScopeHost, Tools: []string{"workspace.write"}, Guarantees: []string{"T1", "T2", "T4", "T14", "S3", "T15", "T16"},
	Contract: "hosts/wire/CONTRACTS.md#tool-error-codes", Guarantee: "Calls to unknown or inactive tools, or with arguments that fail the input schema, MUST be rejected before any side effect.",
}, func(c *kit.TestContext) {
	// Preflight refusals never reach the host.
	nothingDispatched := func(o *kit.Outcome) { o.Dispatched() }
	// A review_only tool set backs no mutating tool (catches ignore-mode).
	reviewOnly := func(o *kit.Outcome) {
		sets := o.Answers(wire.MethodToolsList)
		Expect(sets).NotTo(BeEmpty(), "%s: the harness recorded no tools/list answer", o.File)
		for _, raw := range sets {
			var ts port.ToolSet
			Expect(json.Unmarshal(raw, &ts)).To(Succeed(), "%s: the host's tools/list answer is not a tool set: %s", o.File, raw)
			for name, id := range ts.CanonicalToolIDs {
				Expect([]string{"workspace.write", "workspace.edit", "command.run", "project.validate"}).NotTo(ContainElement(id),
					"%s: in review_only mode the host's tool set maps %s to %s", o.File, name, id)
			}
		}
	}
	c.Scenarios(map[string]kit.Case{
		"unknown-tool.json":       kit.On("T2 L8", nothingDispatched),
		"inactive-lazy-tool.json": kit.On("T2 L8", nothingDispatched),
		"review-only-write.json":  kit.On("T4 L8", reviewOnly),
		"review-only-create.json": kit.On("T4 L8", reviewOnly),
		// Schema rejections are the host's own, with no effects (catches
		// skip-argument-validation).
		"schema-invalid-arguments.json": kit.On("T1 L8", func(o *kit.Outcome) {
			for _, id := range []string{"08-schema-extra", "08-schema-missing", "08-schema-type", "08-schema-edit-extra", "08-schema-read-missing"} {
				r := o.Answer(id)
				Expect(r.OK).To(BeFalse(), "%s: the host accepted %s, whose arguments fail the input schema", o.File, id)
				Expect(r.Error).NotTo(BeNil(), "%s: the host's refusal of %s carries no error", o.File, id)
				Expect(r.Error.Code).To(Equal("INVALID_TOOL_ARGUMENTS"), "%s: the host refused %s with %s", o.File, id, r.Error.Code)
				// CONTRACTS.md (INVALID_TOOL_ARGUMENTS): "the message names
				// the violations"; the words around the name are the host's.
				if field := violation(id); field != "" {
					Expect(r.Error.Message).To(ContainSubstring(field), "%s: the error message refusing %s must name the violation (%s)", o.File, id, field)
				}
				if r.Effects != nil {
					Expect(r.Effects.Writes).To(BeEmpty(), "%s: the refusal of %s attests writes", o.File, id)
				}
			}
			o.KeptInode("notes.md")
		}),
	})
	failureSemantics(c)
})

var _ = matrix.DescribeItem(matrix.Item{
	ID: 9, Name: "mismatch-forged-effects", Area: "tools", Title: "canonical tool/result mismatch and undeclared forged effects",
	Scope: matrix.ScopeBoth, Tools: []string{"workspace.read"}, Guarantees: []string{"T2", "T3"},
	Contract: "hosts/wire/CONTRACTS.md#evidence-types", Guarantee: "A result naming another canonical tool, or attesting effects outside the tool's profile, MUST fail the run with TOOL_EXECUTION.",
}, func(c *kit.TestContext) {
	// names asserts the final error names what the forged result broke,
	// and that the proxy injected the one fault: the host's own answer was
	// conformant.
	names := func(words ...string) kit.Check {
		return func(o *kit.Outcome) {
			for _, w := range words {
				Expect(o.ErrorMessage).To(ContainSubstring(w), "%s: the failure must name %q so a host author can tell the checks apart", o.File, w)
			}
			Expect(o.Faults).To(HaveLen(1), "%s: the proxy must inject exactly the fixture's one fault", o.File)
		}
	}
	c.Scenarios(map[string]kit.Case{
		"mismatch-read-as-list.json":      kit.On("T2 L9", names("identity mismatch", "workspace.read")),
		"mismatch-write-as-edit.json":     kit.On("T2 L9", names("identity mismatch", "workspace.write")),
		"forged-write-on-read.json":       kit.On("T3 L9", names("write")),
		"forged-validation-on-read.json":  kit.On("T3 L9", names("validat")),
		"forged-validation-on-write.json": kit.On("T3 L9", names("validat")),
		"forged-diff-review-on-list.json": kit.On("T3 L9", names("diff")),
		"canonical-ids.json":              kit.On("T2 T3 L9", nil),
	})
	metadataFromActive(c)
})

var _ = matrix.DescribeItem(matrix.Item{
	ID: 20, Name: "git-diff-review", Area: "tools", Title: "trusted git.exec diff-review evidence is classified as a diff observation",
	Scope: matrix.ScopeHost, Tools: []string{"git.exec"}, Guarantees: []string{"R7", "C2", "C3"},
	Contract: "hosts/wire/tools/git.exec.md#effects", Guarantee: "A complete, untruncated git diff MUST carry diff-review evidence and be classified as a diff observation.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		"complete-diff.json": kit.On("R7 L20", func(o *kit.Outcome) {
			d := o.Answer("20-complete-diff")
			Expect(d.Effects).NotTo(BeNil(), "%s: git_operation diff attests no effects", o.File)
			Expect(d.Effects.DiffReview).NotTo(BeNil(), "%s: a complete, untruncated diff must carry diffReview evidence", o.File)
			Expect(strings.TrimSpace(d.Effects.DiffReview.DiffHash)).NotTo(BeEmpty(), "%s: the diff review must carry its diffHash", o.File)
			Expect(d.Effects.InspectedPaths).To(Equal([]string{"."}), "%s: a whole-workspace diff inspects \".\"", o.File)
		}),
		// A truncated diff is no review (catches diff-review-when-truncated
		// at the wire).
		"truncated-diff.json": kit.On("R7 L20", func(o *kit.Outcome) {
			c := o.ContentOf("20-truncated-diff")
			Expect(c["truncated"]).To(Equal(true), "%s: the diff of a large file must say truncated: true", o.File)
			d := o.Answer("20-truncated-diff")
			if d.Effects != nil {
				Expect(d.Effects.DiffReview).To(BeNil(), "%s: a truncated diff must not carry diffReview evidence", o.File)
			}
		}),
		"path-args-are-data.json": kit.On("C2 C3 L20", nil),
	})
})

// unknownOutcomeDurable asserts that the failure checkpoint a fresh host
// reads back records call as an unknown outcome (catches
// store-ack-without-persist and a core that records the call as failed).
func unknownOutcomeDurable(call string) kit.Check {
	return func(o *kit.Outcome) {
		cp, ok := o.CheckpointOf("failure")
		if !ok {
			return
		}
		for _, c := range cp.LastToolCalls {
			if c.ToolCallID == call {
				Expect(string(c.Outcome)).To(Equal("unknown"), "%s: the failure checkpoint records %s as %s; its side effects are unknown", o.File, call, c.Outcome)
				return
			}
		}
		Expect(cp.LastToolCalls).To(ContainElement(HaveField("ToolCallID", call)), "%s: the failure checkpoint does not record %s", o.File, call)
	}
}

var _ = matrix.DescribeItem(matrix.Item{
	ID: 29, Name: "throw-after-dispatch", Area: "tools", Title: "an adapter throw after dispatch terminates with an unknown side-effect outcome",
	Scope: matrix.ScopeBoth, Tools: []string{"command.run"}, Guarantees: []string{"T13", "T14", "T6"},
	Contract: "hosts/wire/PROTOCOL.md#errors", Guarantee: "An adapter failure after dispatch MUST end the run with an unknown side-effect outcome, and partial command mutations MUST stay explicit.",
}, func(c *kit.TestContext) {
	partial := func(call string) kit.Check {
		return func(o *kit.Outcome) {
			o.TypedWrite(call, "report.md", "missing", "", "file", kit.HashOf("partial report\n"))
		}
	}
	c.Scenarios(map[string]kit.Case{
		// The fault proxy makes the adapter throw after the edit was
		// dispatched and done (an internal error, not the protocol's
		// unknown-outcome answer): the mutating call reached the host
		// once, nothing retried it, and the failure checkpoint records its
		// outcome as unknown (catches unknown-outcome-as-failure). And a
		// host that returns an output its schema refuses reports an
		// unknown outcome, not a result (catches skip-output-validation).
		"adapter-throw-after-dispatch.json": kit.On("T13 T14 L29", func(o *kit.Outcome) {
			Expect(o.ExecutedNames()).To(Equal([]string{"list_files", "read_file", "edit_file"}), "%s: after an unknown outcome no call may reach the host", o.File)
			unknownOutcomeDurable("29-adapter-throw-patch")(o)
			// Every tool family's output is validated: a read (list_files)
			// and a mutation (write_file), whose schema failure comes after
			// its side effect.
			h := o.FreshHost(impossibleOutputs)
			for _, call := range []struct{ model, args string }{
				{"list_files", `{"path":"."}`},
				{"write_file", `{"path":"29-output-schema.md","content":"made\n","precondition":{"kind":"must_not_exist"}}`},
			} {
				id := "29-output-schema-" + call.model
				_, err := h.Client().Execute(context.Background(), wire.ExecuteParams{CallID: id, ModelName: call.model,
					Arguments: json.RawMessage(call.args), IdempotencyKey: id, TimeoutMs: 10000,
					Context: wire.RunContext{RunID: "29-output-schema", TaskID: "29-output-schema", Mode: "auto"}})
				Expect(errors.Is(err, wire.ErrUnknownOutcome)).To(BeTrue(),
					"%s: given a %s output schema no output satisfies, the host must answer an unknown outcome; it answered %v", o.File, call.model, err)
			}
		}),
		// The host's own adapter cannot verify its edit of a dependency
		// tree and answers an unknown outcome: nothing retries the edit
		// (catches unknown-outcome-as-retryable, a host that answers it as
		// a retryable IO_ERROR result).
		"unverifiable-edit.json": kit.On("T13 T14 L29", func(o *kit.Outcome) {
			Expect(o.ExecutedNames()).To(Equal([]string{"list_files", "read_file", "edit_file"}), "%s: after an unknown outcome no call may reach the host", o.File)
			unknownOutcomeDurable("29-unverifiable-edit-patch")(o)
		}),
		"throw-after-write.json": kit.On("T13 T14 L29", func(o *kit.Outcome) {
			Expect(o.ExecutedNames()).To(Equal([]string{"list_files", "write_file"}), "%s: the write whose outcome is unknown must not be retried", o.File)
			unknownOutcomeDurable("29-throw-after-write-write")(o)
		}),
		"partial-command-timeout.json": kit.On("T6 L29", partial("29-partial-timeout-run")),
		"partial-command-cancel.json":  kit.On("T6 L29", partial("29-partial-cancel-run")),
		"error-after-dispatch.json":    kit.On("T13 T14 L29", nil),
	})
})

// impossibleOutputs gives list_files and write_file output schemas that
// require a member no real output has.
func impossibleOutputs(p *wire.InitializeParams) {
	for i, d := range p.Catalog.Tools {
		if d.ID != "workspace.list" && d.ID != "workspace.write" {
			continue
		}
		schema := map[string]any{}
		for k, v := range d.OutputSchema {
			schema[k] = v
		}
		props := map[string]any{"impossibleMember": map[string]any{"type": "string"}}
		if old, ok := schema["properties"].(map[string]any); ok {
			for k, v := range old {
				props[k] = v
			}
		}
		schema["properties"] = props
		req := []any{"impossibleMember"}
		if old, ok := schema["required"].([]any); ok {
			req = append(req, old...)
		}
		schema["required"] = req
		d.OutputSchema = schema
		p.Catalog.Tools[i] = d
	}
}

var _ = matrix.DescribeItem(matrix.Item{
	ID: 34, Name: "malformed-after-write", Area: "tools", Title: "malformed adapter output after a real write, and a throw after commit",
	Scope: matrix.ScopeBoth, Tools: []string{"workspace.write"}, Guarantees: []string{"T13", "T14"},
	Contract: "hosts/wire/PROTOCOL.md#errors", Guarantee: "Malformed output after a real write and a throw after a commit MUST both end as durable unknown side-effect outcomes.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		"malformed-after-write.json":   kit.On("T13 T14 L34", unknownOutcomeDurable("34-malformed-write-write")),
		"malformed-after-edit.json":    kit.On("T13 T14 L34", unknownOutcomeDurable("34-malformed-edit-edit")),
		"throw-after-commit-edit.json": kit.On("T13 T14 L34", unknownOutcomeDurable("34-throw-after-edit-edit")),
		"unverifiable-write.json":      kit.On("T13 T14 L34", unknownOutcomeDurable("34-unverifiable-write-write")),
		"garbage-after-write.json":     kit.On("T13 T14 L34", nil),
	})
})

var _ = matrix.DescribeItem(matrix.Item{
	ID: 35, Name: "failed-with-effects", Area: "tools", Title: "ok=false plus host-attested effects cannot be ignored",
	Scope: matrix.ScopeBoth, Tools: []string{"workspace.write"}, Guarantees: []string{"T15", "T16"},
	Contract: "hosts/wire/CONTRACTS.md#result-envelope", Guarantee: "A failed result carrying write, validation or state effects MUST NOT be ignored or followed by a successful final response.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		// A failed result carries no effects but approval (catches
		// failed-result-effects at the wire).
		"failed-write-recovers.json": kit.On("T15 T16 L35", func(o *kit.Outcome) {
			r := o.Answer("35-plain-failure-clobber")
			Expect(r.OK).To(BeFalse(), "%s: the clobbering write must fail", o.File)
			if r.Effects != nil {
				e := *r.Effects
				e.Approval, e.ApprovalRequestID = "", ""
				Expect(e).To(BeZero(), "%s: a failed result may carry only approval and its request ID; it carries %+v", o.File, e)
			}
		}),
		// A denial is correlated with its request.
		"denied-only-effect.json": kit.On("T15 L35", func(o *kit.Outcome) {
			r := o.Answer("35-denied-run")
			Expect(r.OK).To(BeFalse(), "%s: the denied command must fail", o.File)
			Expect(r.Effects).NotTo(BeNil(), "%s: a denial must attest approval: denied", o.File)
			e := *r.Effects
			Expect(e.Approval).To(Equal("denied"), "%s: a denial must attest approval: denied", o.File)
			Expect(strings.TrimSpace(e.ApprovalRequestID)).NotTo(BeEmpty(), "%s: a denial must carry its approvalRequestId", o.File)
			// Correlated: the ID of the approval/request the host sent for
			// the call.
			for _, a := range o.AskedFor("35-denied-run") {
				Expect(e.ApprovalRequestID).To(Equal(a.RequestID), "%s: the denial's approvalRequestId %q is not the requestId %q of the approval/request the host sent for 35-denied-run", o.File, e.ApprovalRequestID, a.RequestID)
			}
			e.Approval, e.ApprovalRequestID = "", ""
			Expect(e).To(BeZero(), "%s: a denial may carry no other effect; it carries %+v", o.File, e)
		}),
		"failed-with-state.json":      kit.On("T15 T16 L35", nil),
		"failed-with-validation.json": kit.On("T15 T16 L35", nil),
		"failed-with-write.json":      kit.On("T15 T16 L35", nil),
	})
})

var _ = matrix.DescribeItem(matrix.Item{
	ID: 51, Name: "pass-fail-pass", Area: "tools", Title: "pass→fail→pass for one validation ID selects the newest status",
	Scope: matrix.ScopeBoth, Tools: []string{"workspace.write", "project.validate", "git.exec"}, Guarantees: []string{"T6", "T7"},
	Contract: "hosts/wire/CONTRACTS.md#completion-gate", Guarantee: "For one stable validation ID the newest status MUST win, without weakening mutation-after-validation rejection.",
}, func(c *kit.TestContext) {
	passFailPass := func(o *kit.Outcome, prefix string) {
		attestedInOrder(o, []string{prefix + "-validate-pass-1", prefix + "-validate-fail", prefix + "-validate-pass-2"}, []string{"passed", "failed", "passed"})
	}
	c.Scenarios(map[string]kit.Case{
		// The newest pass is the effective status: the first final report
		// is accepted (catches gate-oldest-validation-wins).
		"pass-fail-pass.json": kit.On("L51", func(o *kit.Outcome) {
			passFailPass(o, "51-pfp")
			Expect(o.RejectionCodes()).To(BeEmpty(), "%s: the core refused the final report although the newest validation of %s passed after the last write", o.File, appValidation)
		}),
		// A write after the newest pass still voids it (catches
		// gate-write-keeps-validation).
		"write-after-newest-pass.json": kit.On("L51", func(o *kit.Outcome) {
			passFailPass(o, "51-late")
			rejectedWith(o, []string{"WORKSPACE_EVIDENCE_STALE", "WRITE_NOT_VALIDATED"}, []string{"VALIDATION_FAILED"})
		}),
		// The test script removes its stale output: the host attests that
		// removal as a write of the validation's own call, file to missing
		// (catches validation-without-writes), and the identical re-run
		// certifies the run.
		"artifact-cleanup.json": kit.On("T6 T7 L51", func(o *kit.Outcome) {
			attestedInOrder(o, []string{"51-cleanup-validate", "51-cleanup-validate-again"}, []string{"passed", "passed"})
			o.TypedWrite("51-cleanup-validate", "app/test-output.tmp", "file", kit.HashOf("output of an earlier test run\n"), "missing", "")
			Expect(o.Answer("51-cleanup-validate-again").Effects.Writes).To(BeEmpty(), "%s: the identical re-run changed nothing, so it attests no write", o.File)
			Expect(o.RejectionCodes()).To(BeEmpty(), "%s: the core refused the final report although the validation passed after the last write", o.File)
		}),
	})
})

var _ = matrix.DescribeItem(matrix.Item{
	ID: 4, Name: "failed-stale-validation", Area: "tools", Title: "failed and stale validation",
	Scope: matrix.ScopeCore, Tools: []string{"workspace.write", "project.validate"}, Guarantees: nil,
	Contract: "hosts/wire/CONTRACTS.md#completion-gate", Guarantee: "A failed validation, or one older than the latest write, MUST NOT let the run complete.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		// The test fails on the written file: the gate refuses with
		// VALIDATION_FAILED (catches gate-accept-failed-validation).
		"failed-validation.json": kit.On("L4", func(o *kit.Outcome) {
			attested(o, "04-failed-validate", "failed")
			rejectedWith(o, []string{"VALIDATION_FAILED"}, []string{"WORKSPACE_EVIDENCE_STALE"})
		}),
		// The test passed, then the file it covers was rewritten: the
		// validation is stale and the write unvalidated (catches
		// gate-write-keeps-validation).
		"stale-validation.json": kit.On("L4", func(o *kit.Outcome) {
			attested(o, "04-stale-validate", "passed")
			rejectedWith(o, []string{"WORKSPACE_EVIDENCE_STALE", "WRITE_NOT_VALIDATED"}, []string{"VALIDATION_FAILED"})
		}),
	})
})

var _ = matrix.DescribeItem(matrix.Item{
	ID: 19, Name: "validation-supersedes", Area: "tools", Title: "a passing validation supersedes older failed evidence with the same ID",
	Scope: matrix.ScopeCore, Tools: []string{"project.validate"}, Guarantees: nil,
	Contract: "hosts/wire/CONTRACTS.md#completion-gate", Guarantee: "A newer passing validation with the same stable ID MUST supersede the older failure.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		// Failed, fixed, passed under the same ID: the first final report
		// is accepted (catches gate-oldest-validation-wins).
		"fixed-after-failure.json": kit.On("L19", func(o *kit.Outcome) {
			attested(o, "19-validate-failed", "failed")
			attested(o, "19-validate-passed", "passed")
			Expect(o.RejectionCodes()).To(BeEmpty(), "%s: the core refused the final report although the newer validation of %s passed", o.File, appValidation)
		}),
	})
})
