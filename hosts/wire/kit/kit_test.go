package kit_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"time"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/hostproc"
	"github.com/galaxy-stack/conform/hosts/wire/jsonrpc"
	"github.com/galaxy-stack/conform/hosts/wire/kit"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// kitPair serves h in process and returns a strict client for it.
func kitPair(h jsonrpc.Handler, approver func(context.Context, wire.ApprovalParams) (wire.ApprovalDecision, error)) *hostproc.Client {
	return kitPairWith(h, hostproc.StartOptions{Approver: approver})
}

// kitPairWith is kitPair with the client's options (CallTimeout is set).
func kitPairWith(h jsonrpc.Handler, opts hostproc.StartOptions) *hostproc.Client {
	cr, hw := io.Pipe()
	hr, cw := io.Pipe()
	go func() { _ = kit.Serve(context.Background(), hr, hw, h); hw.Close() }()
	opts.CallTimeout = 5 * time.Second
	c := hostproc.Connect(cr, cw, opts)
	DeferCleanup(func() { _ = c.Close(time.Second) })
	return c
}

// brokenOutput is a host's output that fails every write.
type brokenOutput struct{}

func (brokenOutput) Write([]byte) (int, error) {
	return 0, errors.New("write /dev/stdout: resource temporarily unavailable")
}

var _ = Describe("server kit", func() {
	It("returns when it cannot write an answer, instead of reading on and answering nothing", func() {
		mux := kit.NewMux()
		mux.Register(wire.MethodTraceFlush, kit.Typed(func(ctx context.Context, _ struct{}) (wire.TraceFlushResult, error) {
			return wire.TraceFlushResult{}, nil
		}))
		in, feed := io.Pipe()
		DeferCleanup(feed.Close)
		done := make(chan error, 1)
		go func() { done <- kit.Serve(context.Background(), in, brokenOutput{}, mux) }()
		_, err := io.WriteString(feed, `{"jsonrpc":"2.0","id":1,"method":"trace/flush","params":{}}`+"\n")
		Expect(err).NotTo(HaveOccurred())
		// The harness's input stays open: only the failed write can end
		// the server.
		var served error
		Eventually(done).WithTimeout(5 * time.Second).Should(Receive(&served))
		Expect(served).To(MatchError(ContainSubstring("resource temporarily unavailable")))
	})

	It("dispatches by method, decodes params against their schema and names unknown methods", func() {
		mux := kit.NewMux()
		mux.Register(wire.MethodTraceList, kit.Typed(func(ctx context.Context, p wire.TraceListParams) (wire.TraceListResult, error) {
			return wire.TraceListResult{Events: []wire.TraceEvent{}}, nil
		}))
		c := kitPair(mux, nil)
		evs, err := c.TraceList(context.Background(), "run-1")
		Expect(err).NotTo(HaveOccurred())
		Expect(evs).To(BeEmpty())
		_, err = c.TraceList(context.Background(), "")
		Expect(errors.Is(err, wire.ErrInvalidParams)).To(BeTrue())
		Expect(err.Error()).To(ContainSubstring("at /params/runId"))
		_, err = c.TraceFlush(context.Background())
		Expect(errors.Is(err, wire.ErrMethodNotFound)).To(BeTrue())
		Expect(err.Error()).To(ContainSubstring("trace/flush"))
	})

	It("carries port failures with their data, and rejects malformed data", func() {
		mux := kit.NewMux()
		mux.Register(wire.MethodTraceFlush, kit.Typed(func(ctx context.Context, _ struct{}) (wire.TraceFlushResult, error) {
			return wire.TraceFlushResult{}, wire.PortFailure(&port.Error{Code: port.CodeIOError, Message: "disk full"})
		}))
		mux.Register(wire.MethodTraceList, jsonrpc.HandlerFunc(func(ctx context.Context, m string, p json.RawMessage) (any, error) {
			return nil, &wire.Error{Code: wire.ErrPortFailure.Code, Message: "x", Data: map[string]any{"code": "NOPE"}}
		}))
		c := kitPair(mux, nil)
		_, err := c.TraceFlush(context.Background())
		pe, ok := wire.AsPortError(err)
		Expect(ok).To(BeTrue())
		Expect(pe.Code).To(Equal(port.CodeIOError))
		_, err = c.TraceList(context.Background(), "r")
		var perr *wire.ProtocolError
		Expect(errors.As(err, &perr)).To(BeTrue(), "%v", err)
		Expect(perr.Pointer).To(HavePrefix("/error/data"))
	})

	It("lets a handler ask the harness for approval while a tool/execute runs", func() {
		mux := kit.NewMux()
		mux.Register(wire.MethodExecute, jsonrpc.HandlerFunc(func(ctx context.Context, _ string, _ json.RawMessage) (any, error) {
			d, err := kit.RequestApproval(ctx, wire.ApprovalParams{RequestID: "r:c", CanonicalToolID: "workspace.write", ModelName: "write_file",
				Arguments: json.RawMessage(`{}`), Risk: "medium", Mutability: "write", ApprovalProfile: "strict", Reason: "why",
				SuggestedScope: "once", TimeoutMs: 1000, Context: wire.ApprovalContext{RunID: "r", TaskID: "t", ToolCallID: "c", Mode: "auto"}})
			if err != nil {
				return nil, err
			}
			return map[string]any{"ok": d.Approved, "canonicalToolId": "workspace.write", "content": "", "summary": "asked", "trust": "trusted"}, nil
		}))
		c := kitPair(mux, func(ctx context.Context, p wire.ApprovalParams) (wire.ApprovalDecision, error) {
			return wire.ApprovalDecision{Approved: p.CanonicalToolID == "workspace.write", Scope: "once"}, nil
		})
		r, err := c.Execute(context.Background(), wire.ExecuteParams{CallID: "c", ModelName: "write_file", Arguments: json.RawMessage(`{}`),
			IdempotencyKey: "k-c", TimeoutMs: 1000, Context: wire.RunContext{RunID: "r", TaskID: "t", Mode: "auto"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.OK).To(BeTrue())
		Expect(c.Incidents()).To(BeEmpty())
	})

	It("refuses an approval/request while no tool/execute is in flight", func() {
		mux := kit.NewMux()
		mux.Register(wire.MethodTraceFlush, kit.Typed(func(ctx context.Context, _ struct{}) (wire.TraceFlushResult, error) {
			_, err := kit.RequestApproval(ctx, wire.ApprovalParams{RequestID: "r:c", CanonicalToolID: "workspace.write", ModelName: "write_file",
				Arguments: json.RawMessage(`{}`), Risk: "medium", Mutability: "write", ApprovalProfile: "strict", Reason: "why",
				SuggestedScope: "once", TimeoutMs: 1000, Context: wire.ApprovalContext{RunID: "r", TaskID: "t", ToolCallID: "c", Mode: "auto"}})
			return wire.TraceFlushResult{}, err
		}))
		approved := false
		c := kitPair(mux, func(ctx context.Context, p wire.ApprovalParams) (wire.ApprovalDecision, error) {
			approved = true
			return wire.ApprovalDecision{Approved: true, Scope: "once"}, nil
		})
		_, err := c.TraceFlush(context.Background())
		Expect(err).To(MatchError(ContainSubstring(`sent "approval/request" while no "tool/execute" was in flight`)))
		Expect(approved).To(BeFalse())
		Expect(c.Incidents()).To(ContainElement(ContainSubstring("approval/request")))
	})

	It("drops the late answer to a cancelled call and keeps the connection", func() {
		started, release := make(chan struct{}), make(chan struct{})
		mux := kit.NewMux()
		mux.Register(wire.MethodTraceList, kit.Typed(func(ctx context.Context, p wire.TraceListParams) (wire.TraceListResult, error) {
			if p.RunID == "slow" {
				close(started)
				<-ctx.Done()
				<-release
			}
			return wire.TraceListResult{Events: []wire.TraceEvent{}}, nil
		}))
		// The host sends nothing but answers, so the first line the client
		// reads after the release is the late answer; the client reads its
		// lines in order, so once the next line arrives the late one has
		// been dealt with.
		received := make(chan []byte, 8)
		c := kitPairWith(mux, hostproc.StartOptions{OnRecv: func(line []byte) { received <- append([]byte(nil), line...) }})
		ctx, cancel := context.WithCancel(context.Background())
		go func() { <-started; cancel() }() // cancel once the host is handling the call
		_, err := c.TraceList(ctx, "slow")
		Expect(err).To(MatchError(context.Canceled))
		Expect(received).To(BeEmpty(), "the host has not answered the cancelled call yet")
		close(release)
		var late []byte
		Eventually(received).WithTimeout(5 * time.Second).Should(Receive(&late))
		Expect(string(late)).To(ContainSubstring(`"result"`))
		_, err = c.TraceList(context.Background(), "fast")
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Incidents()).To(BeEmpty())
	})

	It("fails the connection when the host sends a request that breaks its schema", func() {
		mux := kit.NewMux()
		mux.Register(wire.MethodTraceFlush, kit.Typed(func(ctx context.Context, _ struct{}) (wire.TraceFlushResult, error) {
			_, err := kit.RequestApproval(ctx, wire.ApprovalParams{RequestID: "r:c"})
			return wire.TraceFlushResult{}, err
		}))
		c := kitPair(mux, func(ctx context.Context, p wire.ApprovalParams) (wire.ApprovalDecision, error) {
			return wire.ApprovalDecision{Approved: true, Scope: "once"}, nil
		})
		_, err := c.TraceFlush(context.Background())
		var perr *wire.ProtocolError
		Expect(errors.As(err, &perr)).To(BeTrue(), "%v", err)
		Expect(perr.Pointer).To(HavePrefix("/params/"))
	})
})
