package reference_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/schema"
	"github.com/galaxy-stack/conform/hosts/hosttest"
	"github.com/galaxy-stack/conform/hosts/reference"
	"github.com/galaxy-stack/conform/hosts/wire"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func create(path, content string) map[string]any {
	return map[string]any{"path": path, "content": content, "precondition": map[string]any{"kind": "must_not_exist"}}
}

var _ = Describe("argument validation", func() {
	DescribeTable("rejects schema-invalid arguments before any side effect",
		func(args map[string]any) {
			e := start(setup{})
			e.fails("write_file", args, "INVALID_TOOL_ARGUMENTS")
			Expect(e.exists("a.txt")).To(BeFalse())
			Expect(e.exists("x")).To(BeFalse())
		},
		Entry("unknown property", map[string]any{"path": "a.txt", "content": "x", "precondition": map[string]any{"kind": "must_not_exist"}, "mode": "0777"}),
		Entry("missing precondition", map[string]any{"path": "a.txt", "content": "x"}),
		Entry("wrong type", map[string]any{"path": "a.txt", "content": 7, "precondition": map[string]any{"kind": "must_not_exist"}}),
		Entry("a .. segment", create("x/../../a.txt", "x")),
		Entry("an absolute path", create("/tmp/a.txt", "x")),
	)

	It("is what stops the write: a host that skips it writes", func() {
		e := start(setup{opts: reference.Options{Faults: reference.Faults{SkipArgumentValidation: true}}})
		r, err := e.call("write_file", map[string]any{"path": "a.txt", "content": "x", "precondition": map[string]any{"kind": "must_not_exist"}, "mode": "0777"})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.OK).To(BeTrue(), "the host that skips argument validation answers the write as done: %s", r.Content)
		Expect(e.exists("a.txt")).To(BeTrue())
	})

	It("answers a tool's later calls as the validator answers each, once its schemas are held", func() {
		e := start(setup{files: map[string]string{"a.txt": "hello\n"}})
		desc, ok := catalog.ByID("workspace.read")
		Expect(ok).To(BeTrue())
		invalid := []map[string]any{
			{"path": "a.txt", "extra": true},
			{"path": "../a.txt", "startLine": 0},
			{"startLine": "1", "maxBytes": 1},
		}
		want := func(args map[string]any) string {
			var ve *schema.ValueError
			Expect(errors.As(schema.NewValidator().Validate(desc.InputSchema, args), &ve)).To(BeTrue())
			var parts []string
			for _, v := range ve.Violations {
				parts = append(parts, v.String()+".")
			}
			return strings.Join(parts, " ")
		}
		for round := range 2 {
			for _, args := range invalid {
				r := e.fails("read_file", args, "INVALID_TOOL_ARGUMENTS")
				Expect(r.Error.Message).To(Equal(want(args)), "round %d: %v", round, args)
			}
			e.ok("read_file", map[string]any{"path": "a.txt"})
		}
	})

	It("answers an inactive name with UNKNOWN_TOOL", func() {
		e := start(setup{})
		r := e.fails("no_such_tool", map[string]any{}, "UNKNOWN_TOOL")
		Expect(r.CanonicalToolID).To(Equal("no_such_tool"))
		Expect(r.Effects).To(BeNil())
	})
})

// brokenListCatalog is the core catalog with a list_files output schema no
// real output can satisfy.
func brokenListCatalog(p *wire.InitializeParams) { hosttest.ImpossibleOutput(p, "workspace.list") }

var _ = Describe("output validation", func() {
	It("reports an output that breaks its schema as an unknown outcome, not a result", func() {
		e := start(setup{params: brokenListCatalog})
		for range 2 { // the first call compiles the schema, the second finds it held
			_, err := e.call("list_files", map[string]any{"path": "."})
			Expect(errors.Is(err, wire.ErrUnknownOutcome)).To(BeTrue(), "%v", err)
		}
	})

	It("is what turns it into an unknown outcome: a host that skips it returns a result", func() {
		e := start(setup{params: brokenListCatalog, opts: reference.Options{Faults: reference.Faults{SkipOutputValidation: true}}})
		r, err := e.call("list_files", map[string]any{"path": "."})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.OK).To(BeTrue())
	})
})

var _ = Describe("approval", func() {
	strict := func(p *wire.InitializeParams) { p.ApprovalProfile = "strict"; p.ApprovalTimeoutMs = 300 }

	It("asks the harness before a side effect and attests the grant", func() {
		var mu sync.Mutex
		var asked []wire.ApprovalParams
		e := start(setup{params: strict, approver: func(ctx context.Context, p wire.ApprovalParams) (wire.ApprovalDecision, error) {
			mu.Lock()
			asked = append(asked, p)
			mu.Unlock()
			return wire.ApprovalDecision{Approved: true, Scope: "once"}, nil
		}})
		r, _ := e.ok("write_file", create("a.txt", "x"))
		Expect(r.Effects.Approval).To(Equal("granted"))
		Expect(asked).To(HaveLen(1))
		Expect(asked[0].CanonicalToolID).To(Equal("workspace.write"))
		Expect(asked[0].RequestID).To(HavePrefix("run-1:call-write_file-"))
		Expect(asked[0].Context.RunID).To(Equal("run-1"))
		var args map[string]any
		Expect(json.Unmarshal(asked[0].Arguments, &args)).To(Succeed())
		Expect(args["path"]).To(Equal("a.txt"))
		Expect(e.exists("a.txt")).To(BeTrue())
		r, _ = e.ok("read_file", map[string]any{"path": "a.txt"})
		Expect(r.Effects.Approval).To(Equal("not_required"), "low risk needs no approval")
		Expect(asked).To(HaveLen(1))
	})

	It("does nothing when the harness denies", func() {
		e := start(setup{params: strict, approver: func(ctx context.Context, p wire.ApprovalParams) (wire.ApprovalDecision, error) {
			return wire.ApprovalDecision{Approved: false, Scope: "once", Reason: "no"}, nil
		}})
		r := e.fails("write_file", create("a.txt", "x"), "DENIED_BY_HOST")
		Expect(r.Effects.Approval).To(Equal("denied"))
		Expect(r.Effects.ApprovalRequestID).NotTo(BeEmpty())
		Expect(e.exists("a.txt")).To(BeFalse())
	})

	It("denies on timeout and withdraws the request with $/cancelRequest", func() {
		withdrawn := make(chan struct{})
		e := start(setup{params: strict, approver: func(ctx context.Context, p wire.ApprovalParams) (wire.ApprovalDecision, error) {
			<-ctx.Done()
			close(withdrawn)
			return wire.ApprovalDecision{}, ctx.Err()
		}})
		e.fails("write_file", create("a.txt", "x"), "DENY_APPROVAL_TIMEOUT")
		Eventually(withdrawn).Should(BeClosed())
		Expect(e.exists("a.txt")).To(BeFalse())
	})

	It("denies as unavailable when the harness answers no approvals (it has no approver)", func() {
		e := start(setup{params: strict})
		e.fails("write_file", create("a.txt", "x"), "DENY_APPROVAL_UNAVAILABLE")
		Expect(e.exists("a.txt")).To(BeFalse())
	})

	It("denies as an approval error when the harness's approver fails", func() {
		e := start(setup{params: strict, approver: func(ctx context.Context, p wire.ApprovalParams) (wire.ApprovalDecision, error) {
			return wire.ApprovalDecision{}, &wire.Error{Code: wire.ErrInternal.Code, Message: "approver broke"}
		}})
		e.fails("write_file", create("a.txt", "x"), "DENY_APPROVAL_ERROR")
		Expect(e.exists("a.txt")).To(BeFalse())
	})

	It("is applied before the side effect: a host that executes first writes anyway", func() {
		e := start(setup{params: strict, opts: reference.Options{Faults: reference.Faults{ExecuteBeforeApproval: true}},
			approver: func(ctx context.Context, p wire.ApprovalParams) (wire.ApprovalDecision, error) {
				return wire.ApprovalDecision{Approved: false, Scope: "once"}, nil
			}})
		e.fails("write_file", create("a.txt", "x"), "DENIED_BY_HOST")
		Expect(e.exists("a.txt")).To(BeTrue())
	})
})

var _ = Describe("idempotency keys", func() {
	exec := func(e *env, key string, args map[string]any) (map[string]any, error) {
		raw, _ := json.Marshal(args)
		r, err := e.client.Execute(context.Background(), wire.ExecuteParams{CallID: "c-" + key, ModelName: "write_file", Arguments: raw,
			IdempotencyKey: key, TimeoutMs: 30000, Context: wire.RunContext{RunID: "run-1", TaskID: "task-1", Mode: "auto"}})
		if err != nil {
			return nil, err
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(r.Content), &m); err != nil {
			return nil, fmt.Errorf("content of %s is not a JSON object: %w", key, err)
		}
		m["_ok"] = r.OK
		return m, nil
	}

	It("return the same result for the same key without executing again", func() {
		e := start(setup{})
		first, err := exec(e, "k1", create("a.txt", "one"))
		Expect(err).NotTo(HaveOccurred())
		Expect(first["_ok"]).To(BeTrue())
		Expect(catalog.IdempotencyWithKey).To(Equal("with_key"))
		again, err := exec(e, "k1", create("a.txt", "one"))
		Expect(err).NotTo(HaveOccurred())
		Expect(again).To(Equal(first))
		other, err := exec(e, "k2", create("a.txt", "one"))
		Expect(err).NotTo(HaveOccurred())
		Expect(other["_ok"]).To(BeFalse(), "a new key executes, and the precondition fails")
	})

	It("are what prevents the repeat: a host that ignores them executes twice", func() {
		e := start(setup{opts: reference.Options{Faults: reference.Faults{IgnoreIdempotencyKey: true}}})
		_, err := exec(e, "k1", create("a.txt", "one"))
		Expect(err).NotTo(HaveOccurred())
		again, err := exec(e, "k1", create("a.txt", "one"))
		Expect(err).NotTo(HaveOccurred())
		Expect(again["_ok"]).To(BeFalse())
	})
})
