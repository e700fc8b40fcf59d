package jsonrpc_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/jsonrpc"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("Framer", func() {
	It("reads lines, skipping blank ones, and a last line without newline", func() {
		f := jsonrpc.NewLineFramer(strings.NewReader("{\"a\":1}\n\n  \n{\"b\":2}"), io.Discard)
		l, err := f.Read()
		Expect(err).NotTo(HaveOccurred())
		Expect(string(l)).To(Equal(`{"a":1}`))
		l, err = f.Read()
		Expect(err).NotTo(HaveOccurred())
		Expect(string(l)).To(Equal(`{"b":2}`))
		_, err = f.Read()
		Expect(err).To(MatchError(io.EOF))
	})

	It("refuses to write a message containing a newline", func() {
		Expect(jsonrpc.NewLineFramer(strings.NewReader(""), io.Discard).Write([]byte("a\nb"))).To(HaveOccurred())
	})
})

// pipePair connects a strict client Conn to a server Conn answering with h,
// in memory. Both end when the spec does.
func pipePair(h jsonrpc.Handler) *jsonrpc.Conn {
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	srv := jsonrpc.NewConn(jsonrpc.NewLineFramer(sr, sw), jsonrpc.ConnOptions{Handler: h, WriteStall: -1})
	go func() { _ = srv.Run(context.Background()) }()
	c := jsonrpc.NewConn(jsonrpc.NewLineFramer(cr, cw), jsonrpc.ConnOptions{Strict: true})
	go func() { _ = c.Run(context.Background()) }()
	DeferCleanup(func() {
		cw.Close()
		sw.Close()
		srv.Wait()
	})
	return c
}

var _ = Describe("Conn", func() {
	It("round-trips a call and validates its result", func() {
		valid := map[string]any{"protocolVersion": "1", "host": map[string]any{"name": "x", "version": "1"}, "tools": []string{}, "capabilities": map[string]bool{"store": false, "trace": false, "spill": false, "fingerprint": false}}
		type seen struct {
			method string
			params string
		}
		calls := make(chan seen, 2)
		answer := make(chan any, 2)
		c := pipePair(jsonrpc.HandlerFunc(func(ctx context.Context, method string, p json.RawMessage) (any, error) {
			calls <- seen{method, string(p)}
			return <-answer, nil
		}))
		answer <- valid
		got, err := c.Call(context.Background(), wire.MethodInitialize, map[string]any{"client": "conform"})
		Expect(err).NotTo(HaveOccurred())
		Expect(<-calls).To(Equal(seen{"initialize", `{"client":"conform"}`}))
		want, _ := json.Marshal(valid)
		Expect(got).To(MatchJSON(want), "the caller gets the handler's result")
		// The same call whose result drops a required field is refused.
		delete(valid, "tools")
		answer <- valid
		_, err = c.Call(context.Background(), wire.MethodInitialize, map[string]any{"client": "conform"})
		var pe *wire.ProtocolError
		Expect(errors.As(err, &pe)).To(BeTrue(), "got %v", err)
		Expect(pe.Method).To(Equal("initialize"))
	})

	It("reports a result that breaks its schema as a ProtocolError with the pointer", func() {
		c := pipePair(jsonrpc.HandlerFunc(func(ctx context.Context, method string, p json.RawMessage) (any, error) {
			return map[string]any{"protocolVersion": "1"}, nil
		}))
		_, err := c.Call(context.Background(), wire.MethodInitialize, map[string]any{})
		var pe *wire.ProtocolError
		Expect(errors.As(err, &pe)).To(BeTrue())
		Expect(pe.Method).To(Equal("initialize"))
		Expect(pe.Pointer).To(Equal("/result/capabilities"))
	})

	It("passes JSON-RPC errors through and matches them by code", func() {
		c := pipePair(jsonrpc.HandlerFunc(func(ctx context.Context, method string, p json.RawMessage) (any, error) {
			return nil, wire.ErrMethodNotFound
		}))
		_, err := c.Call(context.Background(), "nope", map[string]any{})
		Expect(errors.Is(err, wire.ErrMethodNotFound)).To(BeTrue())
	})

	It("cancels the handler's context when the caller gives up", func() {
		cancelled := make(chan struct{})
		c := pipePair(jsonrpc.HandlerFunc(func(ctx context.Context, method string, p json.RawMessage) (any, error) {
			<-ctx.Done()
			close(cancelled)
			return nil, wire.ErrRequestCancelled
		}))
		ctx, cancel := context.WithCancel(context.Background())
		go cancel()
		_, err := c.Call(ctx, "slow", map[string]any{})
		Expect(err).To(MatchError(context.Canceled))
		// The error names the call given up on, for a report of what hung.
		var ce *jsonrpc.CanceledError
		Expect(errors.As(err, &ce)).To(BeTrue())
		Expect(ce.Method).To(Equal("slow"))
		Expect(ce.ID).To(BeNumerically(">", 0))
		Eventually(cancelled).Should(BeClosed())
	})
})
