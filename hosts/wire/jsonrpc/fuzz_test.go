package jsonrpc_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/jsonrpc"
)

// FuzzFramer reads arbitrary input as a host's output: every line it
// returns is non-empty, trimmed, free of newlines and within the limit, and
// reading ends with an error (io.EOF at the end of input).
func FuzzFramer(f *testing.F) {
	f.Add([]byte("{\"a\":1}\n\n  \n{\"b\":2}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		const limit = 1 << 10
		fr := jsonrpc.NewLineFramer(bytes.NewReader(data), io.Discard).Limit(limit)
		total := 0
		for {
			line, err := fr.Read()
			if err != nil {
				if !errors.Is(err, io.EOF) && !errors.Is(err, jsonrpc.ErrLineTooLong) {
					t.Fatalf("Read: unexpected error %v", err)
				}
				return
			}
			if len(line) == 0 || len(line) > limit || bytes.IndexByte(line, '\n') >= 0 || !bytes.Equal(line, bytes.TrimSpace(line)) {
				t.Fatalf("Read returned a malformed line %q", line)
			}
			total += len(line)
			if total > len(data) {
				t.Fatalf("Read returned more bytes (%d) than its input holds (%d)", total, len(data))
			}
		}
	})
}

// FuzzConnDispatch feeds arbitrary input to a strict connection as the
// host's output while a call is pending: Run must end (at the end of input
// or at the first violation) without panicking, the pending call must end
// with it, and every handler must return.
func FuzzConnDispatch(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{"durableEvents":1}}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		h := jsonrpc.HandlerFunc(func(ctx context.Context, method string, params json.RawMessage) (any, error) {
			return map[string]any{"approved": false, "scope": "once"}, nil
		})
		pr, pw := io.Pipe()
		c := jsonrpc.NewConn(jsonrpc.NewLineFramer(pr, io.Discard).Limit(1<<12), jsonrpc.ConnOptions{Handler: h, Strict: true, MaxInFlight: 8, MaxRequests: 64})
		done := make(chan error, 1)
		go func() { done <- c.Run(context.Background()) }()
		called := make(chan error, 1)
		go func() {
			_, err := c.Call(context.Background(), wire.MethodTraceFlush, struct{}{})
			called <- err
		}()
		go func() { _, _ = pw.Write(data); pw.Close() }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatal("Run did not end after the input did")
		}
		select {
		case <-called:
		case <-time.After(5 * time.Second):
			t.Fatal("the pending call did not end with the connection")
		}
		c.Wait()
	})
}
