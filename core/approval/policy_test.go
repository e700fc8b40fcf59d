package approval_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/approval"
	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/port"
)

func call(d catalog.Descriptor, mode string) approval.Call {
	return approval.Call{
		Tool: d, Arguments: map[string]any{"command": "make test"},
		Context: port.ToolContext{RunID: "run-1", TaskID: "task-1", ToolCallID: "call-1", Mode: mode, IdempotencyKey: "k"},
	}
}

// counting wraps an approver and counts its calls.
func counting(n *atomic.Int32, a approval.ApproverFunc) approval.Approver {
	return approval.ApproverFunc(func(ctx context.Context, r approval.Request, tc port.ToolContext) (approval.HostDecision, error) {
		n.Add(1)
		return a(ctx, r, tc)
	})
}

func mustPolicy(p approval.Profile, opts ...approval.Option) *approval.Policy {
	GinkgoHelper()
	policy, err := approval.NewPolicy(p, opts...)
	Expect(err).NotTo(HaveOccurred())
	return policy
}

var _ = Describe("Policy", func() {
	var calls atomic.Int32

	BeforeEach(func() { calls.Store(0) })

	It("rejects an unknown profile", func() {
		_, err := approval.NewPolicy("lenient")
		Expect(err).To(MatchError(`approval: unknown approval profile "lenient"`))
		Expect(mustPolicy(approval.Strict).Profile()).To(Equal(approval.Strict))
	})

	Describe("check order", func() {
		It("denies a canceled run first, without asking", func() {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			p := mustPolicy(approval.Strict, approval.WithApprover(counting(&calls, grant)))
			d := p.Decide(ctx, call(tool("command.run"), "review_only"))
			Expect(d.Code).To(Equal(approval.DenyCanceled))
			Expect(d.Allowed).To(BeFalse())
			Expect(d.RequestID).To(BeEmpty())
			Expect(calls.Load()).To(BeZero())
		})

		It("denies a call at or after the deadline first", func() {
			p := mustPolicy(approval.Strict, approval.WithClock(stepClock(1000, 0)))
			c := call(tool("command.run"), "review_only")
			c.Deadline = 1000
			Expect(p.Decide(context.Background(), c).Code).To(Equal(approval.DenyCanceled))
			c.Deadline = 1001
			Expect(p.Decide(context.Background(), c).Code).To(Equal(approval.DenyRunMode))
		})

		It("checks the mode before permissions and never asks", func() {
			p := mustPolicy(approval.TrustedWorkspace, approval.WithApprover(counting(&calls, grant)))
			d := p.Decide(context.Background(), call(tool("command.run"), "review_only"))
			Expect(d.Code).To(Equal(approval.DenyRunMode))
			Expect(calls.Load()).To(BeZero())
		})

		It("checks permissions before the transport and names the missing ones", func() {
			d := tool("preview.manage")
			d.Transport = "mcp"
			p := mustPolicy(approval.Balanced, approval.WithPermissions("process.execute"))
			got := p.Decide(context.Background(), call(d, "auto"))
			Expect(got.Code).To(Equal(approval.DenyMissingPermission))
			Expect(got.Reason).To(ContainSubstring("preview.local"))
			Expect(got.Reason).NotTo(ContainSubstring("process.execute"))
		})

		It("denies a transport that is not allowed", func() {
			d := tool("workspace.read")
			d.Transport = "extension"
			p := mustPolicy(approval.TrustedWorkspace, approval.WithPermissions(allPermissions...))
			Expect(p.Decide(context.Background(), call(d, "auto")).Code).To(Equal(approval.DenyTransport))
			p = mustPolicy(approval.TrustedWorkspace, approval.WithPermissions(allPermissions...), approval.WithTransports("extension"))
			Expect(p.Decide(context.Background(), call(d, "auto")).Code).To(Equal(approval.AutoApprove))
			Expect(p.Decide(context.Background(), call(tool("workspace.list"), "auto")).Code).To(Equal(approval.DenyTransport))
		})

		It("auto-approves without asking and without a request ID", func() {
			p := mustPolicy(approval.Balanced, approval.WithPermissions(allPermissions...), approval.WithApprover(counting(&calls, grant)))
			d := p.Decide(context.Background(), call(tool("workspace.write"), "auto"))
			Expect(d).To(decided(approval.AutoApprove, ""))
			Expect(calls.Load()).To(BeZero())
		})

		It("denies a call that needs approval when no approver is configured", func() {
			p := mustPolicy(approval.Balanced, approval.WithPermissions(allPermissions...))
			d := p.Decide(context.Background(), call(tool("command.run"), "auto"))
			Expect(d.Code).To(Equal(approval.DenyApprovalUnavailable))
			Expect(d.RequestID).To(Equal("run-1:call-1"))
		})

		It("denies when no time is left after the earlier checks", func() {
			// The clock advances between the first check and the wait.
			p := mustPolicy(approval.Balanced, approval.WithPermissions(allPermissions...),
				approval.WithApprover(counting(&calls, grant)), approval.WithClock(stepClock(99, time.Millisecond)))
			c := call(tool("command.run"), "auto")
			c.Deadline = 100
			d := p.Decide(context.Background(), c)
			Expect(d.Code).To(Equal(approval.DenyCanceled))
			Expect(d.RequestID).To(Equal("run-1:call-1"))
			Expect(calls.Load()).To(BeZero())
		})
	})

	Describe("research tools in review_only under trusted-workspace", func() {
		for _, id := range []string{"research.fetch", "research.search"} {
			It("still need network.outbound and an approver for "+id, func() {
				c := call(tool(id), "review_only")
				Expect(mustPolicy(approval.TrustedWorkspace).Decide(context.Background(), c).Code).To(Equal(approval.DenyMissingPermission))
				p := mustPolicy(approval.TrustedWorkspace, approval.WithPermissions("network.outbound"))
				Expect(p.Decide(context.Background(), c).Code).To(Equal(approval.DenyApprovalUnavailable))
				p = mustPolicy(approval.TrustedWorkspace, approval.WithPermissions("network.outbound"), approval.WithApprover(approval.ApproverFunc(grant)))
				d := p.Decide(context.Background(), c)
				Expect(d.Code).To(Equal(approval.ApprovedByHost))
				Expect(d.Allowed).To(BeTrue())
			})
		}
	})

	Describe("asking the approver", func() {
		var p *approval.Policy
		policy := func(a approval.ApproverFunc, opts ...approval.Option) *approval.Policy {
			return mustPolicy(approval.Strict, append([]approval.Option{approval.WithPermissions(allPermissions...),
				approval.WithApprover(counting(&calls, a))}, opts...)...)
		}

		It("sends the request of CONTRACTS §10.3", func() {
			var got approval.Request
			var gotTC port.ToolContext
			p = policy(func(_ context.Context, r approval.Request, tc port.ToolContext) (approval.HostDecision, error) {
				got, gotTC = r, tc
				return approval.HostDecision{Approved: true, Scope: approval.ScopeWorkspace, Reason: "ok by me"}, nil
			})
			c := call(tool("workspace.edit"), "refactor")
			d := p.Decide(context.Background(), c)
			Expect(d).To(Equal(approval.Decision{Allowed: true, Code: approval.ApprovedByHost, Reason: "ok by me",
				RequestID: "run-1:call-1", Scope: approval.ScopeWorkspace}))
			Expect(got.ApprovalProfile).To(Equal(approval.Strict))
			Expect(got.ArgumentsValue).To(Equal(c.Arguments))
			Expect(got.RequestID).To(Equal("run-1:call-1"))
			Expect(got.SuggestedScope).To(Equal(approval.ScopeOnce))
			Expect(got.Tool.ID).To(Equal("workspace.edit"))
			Expect(got.Reason).To(ContainSubstring("workspace.edit"))
			Expect(gotTC).To(Equal(c.Context))
		})

		It("falls back to its own reasons", func() {
			p = policy(func(context.Context, approval.Request, port.ToolContext) (approval.HostDecision, error) {
				return approval.HostDecision{Approved: true, Scope: approval.ScopeOnce}, nil
			})
			d := p.Decide(context.Background(), call(tool("research.fetch"), "auto"))
			Expect(d.Reason).To(ContainSubstring("external side effect"))
			p = policy(func(context.Context, approval.Request, port.ToolContext) (approval.HostDecision, error) {
				return approval.HostDecision{Approved: false, Scope: approval.ScopeRun}, nil
			})
			d = p.Decide(context.Background(), call(tool("research.fetch"), "auto"))
			Expect(d.Code).To(Equal(approval.DeniedByHost))
			Expect(d.Scope).To(Equal(approval.ScopeRun))
			Expect(d.Allowed).To(BeFalse())
			Expect(d.Reason).NotTo(BeEmpty())
		})

		It("reports a structured port failure", func() {
			p = policy(func(context.Context, approval.Request, port.ToolContext) (approval.HostDecision, error) {
				return approval.HostDecision{}, fmt.Errorf("prompt: %w", &approval.PortError{Code: "APPROVAL_UNAVAILABLE", Message: "no UI"})
			})
			d := p.Decide(context.Background(), call(tool("command.run"), "auto"))
			Expect(d.Code).To(Equal(approval.DenyApprovalError))
			Expect(d.Reason).To(ContainSubstring("APPROVAL_UNAVAILABLE: no UI"))
			Expect(d.RequestID).To(Equal("run-1:call-1"))
		})

		It("reports a failing approver as APPROVAL_CALLBACK_THROWN", func() {
			p = policy(func(context.Context, approval.Request, port.ToolContext) (approval.HostDecision, error) {
				return approval.HostDecision{Approved: true}, errors.New("boom")
			})
			d := p.Decide(context.Background(), call(tool("command.run"), "auto"))
			Expect(d.Code).To(Equal(approval.DenyApprovalError))
			Expect(d.Allowed).To(BeFalse())
			Expect(d.Reason).To(ContainSubstring("APPROVAL_CALLBACK_THROWN"))
		})

		It("reports a panicking approver as APPROVAL_CALLBACK_THROWN", func() {
			p = policy(func(context.Context, approval.Request, port.ToolContext) (approval.HostDecision, error) {
				panic("approver bug")
			})
			d := p.Decide(context.Background(), call(tool("command.run"), "auto"))
			Expect(d.Code).To(Equal(approval.DenyApprovalError))
			Expect(d.Reason).To(ContainSubstring("APPROVAL_CALLBACK_THROWN"))
		})

		It("times out, dismisses the request and leaves the run alone", func() {
			dismissed := make(chan struct{})
			p = policy(func(ctx context.Context, _ approval.Request, _ port.ToolContext) (approval.HostDecision, error) {
				<-ctx.Done()
				close(dismissed)
				return approval.HostDecision{Approved: true}, nil
			}, approval.WithTimeout(20))
			run, cancel := context.WithCancel(context.Background())
			defer cancel()
			d := p.Decide(run, call(tool("command.run"), "auto"))
			Expect(d.Code).To(Equal(approval.DenyApprovalTimeout))
			Expect(d.RequestID).To(Equal("run-1:call-1"))
			Eventually(dismissed).Should(BeClosed())
			Expect(run.Err()).NotTo(HaveOccurred())
		})

		It("waits at most the time left before the deadline", func() {
			p = policy(func(ctx context.Context, _ approval.Request, _ port.ToolContext) (approval.HostDecision, error) {
				<-ctx.Done()
				return approval.HostDecision{}, ctx.Err()
			}, approval.WithTimeout(60000), approval.WithClock(stepClock(0, 0)))
			c := call(tool("command.run"), "auto")
			c.Deadline = 30
			start := time.Now()
			Expect(p.Decide(context.Background(), c).Code).To(Equal(approval.DenyApprovalTimeout))
			Expect(time.Since(start)).To(BeNumerically("<", 10*time.Second))
		})

		It("clamps the timeout to at least 1 ms", func() {
			p = policy(func(ctx context.Context, _ approval.Request, _ port.ToolContext) (approval.HostDecision, error) {
				<-ctx.Done()
				return approval.HostDecision{}, nil
			}, approval.WithTimeout(-5))
			Expect(p.Decide(context.Background(), call(tool("command.run"), "auto")).Code).To(Equal(approval.DenyApprovalTimeout))
		})

		It("denies with deny_canceled when the run is canceled during the wait", func() {
			run, cancel := context.WithCancel(context.Background())
			p = policy(func(ctx context.Context, _ approval.Request, _ port.ToolContext) (approval.HostDecision, error) {
				cancel()
				<-ctx.Done()
				return approval.HostDecision{}, ctx.Err()
			})
			d := p.Decide(run, call(tool("command.run"), "auto"))
			Expect(d.Code).To(Equal(approval.DenyCanceled))
			Expect(d.RequestID).To(Equal("run-1:call-1"))
		})

		It("lets cancellation win over an answer that arrives with it", func() {
			run, cancel := context.WithCancel(context.Background())
			p = policy(func(context.Context, approval.Request, port.ToolContext) (approval.HostDecision, error) {
				cancel()
				return approval.HostDecision{Approved: true}, nil
			})
			for range 20 {
				Expect(p.Decide(run, call(tool("command.run"), "auto")).Code).To(Equal(approval.DenyCanceled))
			}
		})
	})
})

// decided matches a Decision by code and request ID and checks that
// Allowed agrees with the code.
func decided(code approval.Code, requestID string) OmegaMatcher {
	return And(
		WithTransform(func(d approval.Decision) approval.Code { return d.Code }, Equal(code)),
		WithTransform(func(d approval.Decision) string { return d.RequestID }, Equal(requestID)),
		WithTransform(func(d approval.Decision) bool { return d.Allowed }, Equal(code == approval.AutoApprove || code == approval.ApprovedByHost)),
	)
}
