package kit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"sync"

	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/jsonrpc"
)

// Serve runs a host on r and w (normally stdin and stdout) until the
// harness sends shutdown or closes r. Each request is answered by h; the
// shutdown request is answered by h too, and then Serve returns nil once
// every other handler has returned. Handlers may call the harness back
// through ConnFrom(ctx). A write to w that fails ends Serve with its error.
func Serve(ctx context.Context, r io.Reader, w io.Writer, h jsonrpc.Handler) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	shutdown := make(chan struct{})
	var once sync.Once
	wrapped := jsonrpc.HandlerFunc(func(ctx context.Context, method string, params json.RawMessage) (any, error) {
		res, err := h.Handle(ctx, method, params)
		if method == wire.MethodShutdown {
			defer once.Do(func() { close(shutdown) })
			if res == nil && err == nil {
				res = struct{}{}
			}
		}
		return res, err
	})
	conn := jsonrpc.NewConn(jsonrpc.NewLineFramer(r, w), jsonrpc.ConnOptions{Handler: wrapped, WriteStall: -1})
	errc := make(chan error, 1)
	go func() { errc <- conn.Run(ctx) }()
	select {
	case <-shutdown:
		cancel()
		conn.Wait()
		return nil
	case err := <-errc:
		cancel()
		conn.Wait()
		if errors.Is(err, io.EOF) {
			return nil
		}
		return err
	case <-conn.Done():
		// The connection broke without ending the input: a write to the
		// harness failed. Every answer from here on would be dropped, so
		// the host ends and its exit, not a silence, tells the harness.
		cancel()
		conn.Wait()
		if err := conn.Err(); !errors.Is(err, io.EOF) {
			return err
		}
		return nil
	}
}

// A Mux is a Handler that dispatches each request to the handler
// registered for its method, so that a Go host is a set of handlers:
//
//	mux := kit.NewMux()
//	mux.Register(wire.MethodInitialize, kit.Typed(h.initialize))
//	mux.Register(wire.MethodExecute, kit.Typed(h.execute))
//	kit.Serve(ctx, os.Stdin, os.Stdout, mux)
//
// A method without a handler is answered with wire.ErrMethodNotFound naming it.
// Handlers must be registered before serving starts.
type Mux struct {
	handlers map[string]jsonrpc.Handler
}

var _ jsonrpc.Handler = (*Mux)(nil)

// NewMux returns an empty Mux.
func NewMux() *Mux { return &Mux{handlers: map[string]jsonrpc.Handler{}} }

// Register registers h for method, replacing any earlier handler.
func (m *Mux) Register(method string, h jsonrpc.Handler) { m.handlers[method] = h }

// Methods returns the registered methods, sorted.
func (m *Mux) Methods() []string {
	out := make([]string, 0, len(m.handlers))
	for k := range m.handlers {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Handle dispatches one request.
func (m *Mux) Handle(ctx context.Context, method string, params json.RawMessage) (any, error) {
	h, ok := m.handlers[method]
	if !ok {
		return nil, &wire.Error{Code: wire.ErrMethodNotFound.Code, Message: "method not found: " + method}
	}
	return h.Handle(ctx, method, params)
}

// Typed adapts a typed function to a Handler: the params are checked
// against the method's published schema and decoded strictly into P (see
// DecodeParams), and the result R is sent as the response's result.
func Typed[P, R any](fn func(ctx context.Context, p P) (R, error)) jsonrpc.Handler {
	return jsonrpc.HandlerFunc(func(ctx context.Context, method string, params json.RawMessage) (any, error) {
		var p P
		if err := DecodeParams(method, params, &p); err != nil {
			return nil, err
		}
		return fn(ctx, p)
	})
}

// DecodeParams checks params against the published schema of method (when
// it has one) and decodes them into v, rejecting unknown fields. A
// violation is answered with wire.ErrInvalidParams whose message names the JSON
// pointer of the offending field, e.g.
// "invalid params: at /params/callId: required field is missing".
func DecodeParams(method string, params json.RawMessage, v any) error {
	if len(bytes.TrimSpace(params)) == 0 {
		params = json.RawMessage("{}")
	}
	if name := wire.ParamsSchema(method); name != "" {
		if viol := wire.Validate(name, params); viol != nil {
			return &wire.Error{Code: wire.ErrInvalidParams.Code, Message: fmt.Sprintf("invalid params: at /params%s: %s", viol.Pointer, viol.Reason)}
		}
	}
	dec := json.NewDecoder(bytes.NewReader(params))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return &wire.Error{Code: wire.ErrInvalidParams.Code, Message: "invalid params: " + err.Error()}
	}
	return nil
}

// RequestApproval asks the harness for a decision on one call over the
// connection of the request being handled (ConnFrom(ctx)). It returns when
// the harness answers or ctx ends; in the latter case the harness receives
// $/cancelRequest and the error is ctx's. The harness's answer is checked
// against its published schema.
func RequestApproval(ctx context.Context, p wire.ApprovalParams) (wire.ApprovalDecision, error) {
	c := jsonrpc.ConnFrom(ctx)
	if c == nil {
		return wire.ApprovalDecision{}, errors.New("wire: approval/request outside a request handler")
	}
	raw, err := c.Call(ctx, wire.MethodApproval, p)
	if err != nil {
		return wire.ApprovalDecision{}, err
	}
	if v := wire.Validate(wire.ResultSchema(wire.MethodApproval), raw); v != nil {
		return wire.ApprovalDecision{}, fmt.Errorf("wire: approval/request answer at /result%s: %s", v.Pointer, v.Reason)
	}
	var d wire.ApprovalDecision
	if err := json.Unmarshal(raw, &d); err != nil {
		return wire.ApprovalDecision{}, fmt.Errorf("wire: approval/request answer: %w", err)
	}
	return d, nil
}
