package matrix

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/wire"
	. "github.com/onsi/gomega"
)

var _ = describeItem(3, func(c *TestContext) {
	c.scenarios(map[string]check{
		// A scoped validation is attested as scoped, and the final diff is
		// hashed.
		"happy-path.json": func(o *outcome) {
			v := o.answer("03-happy-validate")
			Expect(v.EffectsAuthority).To(Equal("host"), "%s: validate_project's effects must be host-attested", o.File)
			Expect(v.Effects).NotTo(BeNil(), "%s: validate_project attests no effects", o.File)
			Expect(v.Effects.Validations).To(ConsistOf(port.ValidationEntry{ID: "project.validate:test:app", Detail: v.Effects.Validations[0].Detail,
				Scope: "paths", Paths: []string{"app"}, Status: "passed"}),
				"%s: a test run scoped to app/ must be attested as one passed validation of scope paths [app]", o.File)
			d := o.answer("03-happy-diff")
			Expect(d.Effects).NotTo(BeNil(), "%s: git_operation diff attests no effects", o.File)
			Expect(d.Effects.DiffReview).NotTo(BeNil(), "%s: a complete diff must carry diffReview evidence", o.File)
			Expect(strings.TrimSpace(d.Effects.DiffReview.DiffHash)).NotTo(BeEmpty(), "%s: the diff review must carry its diffHash", o.File)
		},
		// Derived dependency state is a state change, never a write
		// (catches derived-as-write).
		"derived-cache-rewrite.json": func(o *outcome) {
			v := o.answer("03-derived-validate")
			Expect(v.Effects).NotTo(BeNil(), "%s: validate_project attests no effects", o.File)
			for _, w := range v.Effects.Writes {
				Expect(w.Path).NotTo(HavePrefix("node_modules/"), "%s: validate_project attests derived dependency state %s as a write", o.File, w.Path)
			}
			Expect(v.Effects.StateVersion).NotTo(BeEmpty(), "%s: a validation that rewrote derived state must advance stateVersion", o.File)
		},
		// The repository's script is code: the host asked before running it
		// (catches validate-without-approval).
		"unapproved-validation.json": func(o *outcome) {
			n := 0
			for _, a := range o.Approvals {
				if a.CanonicalToolID == "project.validate" {
					n++
				}
			}
			Expect(n).To(Equal(1), "%s: the host must ask the harness exactly once before running the repository's test script; it asked %d times", o.File, n)
		},
	})
})

var _ = describeItem(8, func(c *TestContext) {
	// Preflight refusals never reach the host.
	nothingDispatched := func(o *outcome) { o.dispatched() }
	// A review_only tool set backs no mutating tool (catches ignore-mode).
	reviewOnly := func(o *outcome) {
		sets := o.answers(wire.MethodToolsList)
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
	c.scenarios(map[string]check{
		"unknown-tool.json":       nothingDispatched,
		"inactive-lazy-tool.json": nothingDispatched,
		"review-only-write.json":  reviewOnly,
		"review-only-create.json": reviewOnly,
		// Schema rejections are the host's own, with no effects (catches
		// skip-argument-validation).
		"schema-invalid-arguments.json": func(o *outcome) {
			for _, id := range []string{"08-schema-extra", "08-schema-missing", "08-schema-type", "08-schema-edit-extra", "08-schema-read-missing"} {
				r := o.answer(id)
				Expect(r.OK).To(BeFalse(), "%s: the host accepted %s, whose arguments fail the input schema", o.File, id)
				Expect(r.Error).NotTo(BeNil(), "%s: the host's refusal of %s carries no error", o.File, id)
				Expect(r.Error.Code).To(Equal("INVALID_TOOL_ARGUMENTS"), "%s: the host refused %s with %s", o.File, id, r.Error.Code)
				if r.Effects != nil {
					Expect(r.Effects.Writes).To(BeEmpty(), "%s: the refusal of %s attests writes", o.File, id)
				}
			}
			o.keptInode("notes.md")
		},
	})
})

var _ = describeItem(9, func(c *TestContext) {
	// names asserts the final error names what the forged result broke,
	// and that the proxy injected the one fault: the host's own answer was
	// conformant.
	names := func(words ...string) check {
		return func(o *outcome) {
			for _, w := range words {
				Expect(o.ErrorMessage).To(ContainSubstring(w), "%s: the failure must name %q so a host author can tell the checks apart", o.File, w)
			}
			Expect(o.Faults).To(HaveLen(1), "%s: the proxy must inject exactly the fixture's one fault", o.File)
		}
	}
	c.scenarios(map[string]check{
		"mismatch-read-as-list.json":      names("identity mismatch", "workspace.read"),
		"mismatch-write-as-edit.json":     names("identity mismatch", "workspace.write"),
		"forged-write-on-read.json":       names("write"),
		"forged-validation-on-read.json":  names("validat"),
		"forged-validation-on-write.json": names("validat"),
		"forged-diff-review-on-list.json": names("diff"),
	})
})

var _ = describeItem(20, func(c *TestContext) {
	c.scenarios(map[string]check{
		"complete-diff.json": func(o *outcome) {
			d := o.answer("20-complete-diff")
			Expect(d.Effects).NotTo(BeNil(), "%s: git_operation diff attests no effects", o.File)
			Expect(d.Effects.DiffReview).NotTo(BeNil(), "%s: a complete, untruncated diff must carry diffReview evidence", o.File)
			Expect(strings.TrimSpace(d.Effects.DiffReview.DiffHash)).NotTo(BeEmpty(), "%s: the diff review must carry its diffHash", o.File)
			Expect(d.Effects.InspectedPaths).To(Equal([]string{"."}), "%s: a whole-workspace diff inspects \".\"", o.File)
		},
		// A truncated diff is no review (catches diff-review-when-truncated
		// at the wire).
		"truncated-diff.json": func(o *outcome) {
			c := o.contentOf("20-truncated-diff")
			Expect(c["truncated"]).To(Equal(true), "%s: the diff of a large file must say truncated: true", o.File)
			d := o.answer("20-truncated-diff")
			if d.Effects != nil {
				Expect(d.Effects.DiffReview).To(BeNil(), "%s: a truncated diff must not carry diffReview evidence", o.File)
			}
		},
	})
})

// unknownOutcomeDurable asserts that the failure checkpoint a fresh host
// reads back records call as an unknown outcome (catches
// store-ack-without-persist and a core that records the call as failed).
func unknownOutcomeDurable(call string) check {
	return func(o *outcome) {
		cp, ok := o.checkpointOf("failure")
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

var _ = describeItem(29, func(c *TestContext) {
	partial := func(call string) check {
		return func(o *outcome) {
			o.typedWrite(call, "report.md", "missing", "", "file", hashOf("partial report\n"))
		}
	}
	c.scenarios(map[string]check{
		// The mutating call reached the host once; nothing retried it. And
		// a host that returns an output its schema refuses reports an
		// unknown outcome, not a result (catches skip-output-validation).
		"adapter-throw-after-dispatch.json": func(o *outcome) {
			Expect(o.executedNames()).To(Equal([]string{"list_files", "read_file", "edit_file"}), "%s: after an unknown outcome no call may reach the host", o.File)
			h := o.freshHost(impossibleListOutput)
			_, err := h.Client().Execute(context.Background(), wire.ExecuteParams{CallID: "29-output-schema", ModelName: "list_files",
				Arguments: json.RawMessage(`{"path":"."}`), IdempotencyKey: "29-output-schema", TimeoutMs: 10000,
				Context: wire.RunContext{RunID: "29-output-schema", TaskID: "29-output-schema", Mode: "auto"}})
			Expect(errors.Is(err, wire.ErrUnknownOutcome)).To(BeTrue(),
				"%s: given a list_files output schema no output satisfies, the host must answer an unknown outcome; it answered %v", o.File, err)
		},
		"throw-after-write.json": func(o *outcome) {
			Expect(o.executedNames()).To(Equal([]string{"list_files", "write_file"}), "%s: the write whose outcome is unknown must not be retried", o.File)
			unknownOutcomeDurable("29-throw-after-write-write")(o)
		},
		"partial-command-timeout.json": partial("29-partial-timeout-run"),
		"partial-command-cancel.json":  partial("29-partial-cancel-run"),
	})
})

// impossibleListOutput gives list_files an output schema that requires a
// member no real output has.
func impossibleListOutput(p *wire.InitializeParams) {
	for i, d := range p.Catalog.Tools {
		if d.ID != "workspace.list" {
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

var _ = describeItem(34, func(c *TestContext) {
	c.scenarios(map[string]check{
		"malformed-after-write.json":   unknownOutcomeDurable("34-malformed-write-write"),
		"malformed-after-edit.json":    unknownOutcomeDurable("34-malformed-edit-edit"),
		"throw-after-commit-edit.json": unknownOutcomeDurable("34-throw-after-edit-edit"),
		"unverifiable-write.json":      unknownOutcomeDurable("34-unverifiable-write-write"),
	})
})

var _ = describeItem(35, func(c *TestContext) {
	c.scenarios(map[string]check{
		// A failed result carries no effects but approval (catches
		// failed-result-effects at the wire).
		"failed-write-recovers.json": func(o *outcome) {
			r := o.answer("35-plain-failure-clobber")
			Expect(r.OK).To(BeFalse(), "%s: the clobbering write must fail", o.File)
			if r.Effects != nil {
				e := *r.Effects
				e.Approval, e.ApprovalRequestID = "", ""
				Expect(e).To(BeZero(), "%s: a failed result may carry only approval and its request ID; it carries %+v", o.File, e)
			}
		},
		// A denial is correlated with its request.
		"denied-only-effect.json": func(o *outcome) {
			r := o.answer("35-denied-run")
			Expect(r.OK).To(BeFalse(), "%s: the denied command must fail", o.File)
			Expect(r.Effects).NotTo(BeNil(), "%s: a denial must attest approval: denied", o.File)
			e := *r.Effects
			Expect(e.Approval).To(Equal("denied"), "%s: a denial must attest approval: denied", o.File)
			Expect(strings.TrimSpace(e.ApprovalRequestID)).NotTo(BeEmpty(), "%s: a denial must carry its approvalRequestId", o.File)
			e.Approval, e.ApprovalRequestID = "", ""
			Expect(e).To(BeZero(), "%s: a denial may carry no other effect; it carries %+v", o.File, e)
		},
	})
})
