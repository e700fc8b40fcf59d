package wire

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"
)

// A Handler answers requests and notifications from the peer. The result is
// marshalled as the response's result; an *Error is sent as the response's
// error, any other error as an internal error with its text. The context is
// cancelled when the peer sends $/cancelRequest for the request.
type Handler interface {
	Handle(ctx context.Context, method string, params json.RawMessage) (any, error)
}

// HandlerFunc adapts a function to a Handler.
type HandlerFunc func(ctx context.Context, method string, params json.RawMessage) (any, error)

// Handle calls f.
func (f HandlerFunc) Handle(ctx context.Context, method string, params json.RawMessage) (any, error) {
	return f(ctx, method, params)
}

var _ Handler = HandlerFunc(nil)

// MethodCancel is the notification that cancels an in-flight request.
const MethodCancel = "$/cancelRequest"

// ConnOptions configure a Conn. All fields are optional.
type ConnOptions struct {
	// Handler answers requests from the peer; nil answers every request
	// with ErrMethodNotFound.
	Handler Handler
	// Strict validates every message the peer sends against the published
	// schemas; the harness's side of a connection is strict.
	Strict bool
	// OnRecv and OnSend observe every message, as sent on the wire.
	OnRecv, OnSend func(line []byte)
}

// A Conn is one side of a JSON-RPC 2.0 connection over a Framer.
type Conn struct {
	f    *Framer
	opts ConnOptions

	mu       sync.Mutex
	nextID   int64
	pending  map[int64]chan reply
	given    map[int64]bool // calls given up on; their late answers are dropped
	inflight map[string]context.CancelFunc
	err      error // set once the connection is broken
	done     chan struct{}
	handlers sync.WaitGroup
}

type reply struct {
	msg  *Message
	line []byte
}

// NewConn returns a connection over f. Call Run to start reading.
func NewConn(f *Framer, opts ConnOptions) *Conn {
	return &Conn{
		f:        f,
		opts:     opts,
		pending:  map[int64]chan reply{},
		given:    map[int64]bool{},
		inflight: map[string]context.CancelFunc{},
		done:     make(chan struct{}),
	}
}

// Run reads messages until the input ends or the peer breaks the protocol,
// and returns why it stopped (io.EOF at a clean end). Pending calls fail with
// the same error.
func (c *Conn) Run(ctx context.Context) error {
	for {
		line, err := c.f.Read()
		if err != nil {
			if errors.Is(err, ErrLineTooLong) {
				err = &ProtocolError{Reason: "message longer than 64 MiB"}
			}
			return c.fail(err)
		}
		if c.opts.OnRecv != nil {
			c.opts.OnRecv(line)
		}
		if err := c.dispatch(ctx, line); err != nil {
			return c.fail(err)
		}
	}
}

// Wait blocks until every request handler started by Run has returned.
func (c *Conn) Wait() { c.handlers.Wait() }

// Done is closed when the connection is broken; Err then says why.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Err returns why the connection broke, or nil while it is healthy.
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

func (c *Conn) fail(err error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err == nil {
		c.err = err
		close(c.done)
	}
	return c.err
}

func (c *Conn) dispatch(ctx context.Context, line []byte) error {
	var probe struct {
		Method *string `json:"method"`
	}
	if err := json.Unmarshal(line, &probe); err != nil {
		return &ProtocolError{Reason: "not a JSON object", Quote: quote(line)}
	}
	if c.opts.Strict {
		name := SchemaResponse
		if probe.Method != nil {
			name = SchemaRequest
		}
		if v := Validate(name, line); v != nil {
			return &ProtocolError{Pointer: v.Pointer, Reason: "not a JSON-RPC 2.0 message: " + v.Reason, Quote: quote(line)}
		}
		if probe.Method != nil {
			if err := validateParams(*probe.Method, line); err != nil {
				return err
			}
		}
	}
	var msg Message
	if err := json.Unmarshal(line, &msg); err != nil {
		return &ProtocolError{Reason: "not a JSON-RPC 2.0 message: " + err.Error(), Quote: quote(line)}
	}
	if msg.IsRequest() {
		c.serve(ctx, &msg)
		return nil
	}
	if msg.ID == nil {
		return &ProtocolError{Reason: "response without an id", Quote: quote(line)}
	}
	id, err := strconv.ParseInt(string(*msg.ID), 10, 64)
	c.mu.Lock()
	ch, ok := c.pending[id]
	delete(c.pending, id)
	late := c.given[id]
	delete(c.given, id)
	c.mu.Unlock()
	if late {
		return nil
	}
	if err != nil || !ok {
		return &ProtocolError{Reason: fmt.Sprintf("response to unknown request id %s", *msg.ID), Quote: quote(line)}
	}
	ch <- reply{msg: &msg, line: line}
	return nil
}

func (c *Conn) serve(ctx context.Context, msg *Message) {
	if msg.Method == MethodCancel {
		var p struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal(msg.Params, &p) == nil {
			c.mu.Lock()
			if cancel, ok := c.inflight[string(p.ID)]; ok {
				cancel()
			}
			c.mu.Unlock()
		}
		return
	}
	hctx, cancel := context.WithCancel(context.WithValue(ctx, connKey{}, c))
	key := ""
	if msg.ID != nil {
		key = string(*msg.ID)
		c.mu.Lock()
		c.inflight[key] = cancel
		c.mu.Unlock()
	}
	c.handlers.Add(1)
	go func() {
		defer c.handlers.Done()
		defer cancel()
		var result any
		var err error
		if c.opts.Handler == nil {
			err = ErrMethodNotFound
		} else {
			result, err = c.opts.Handler.Handle(hctx, msg.Method, msg.Params)
		}
		if msg.ID == nil {
			return
		}
		c.mu.Lock()
		delete(c.inflight, key)
		c.mu.Unlock()
		resp := Message{JSONRPC: "2.0", ID: msg.ID}
		if err != nil {
			var we *Error
			if !errors.As(err, &we) {
				we = &Error{Code: ErrInternal.Code, Message: err.Error()}
			}
			resp.Error = we
		} else {
			b, merr := json.Marshal(result)
			if merr != nil {
				resp.Error = &Error{Code: ErrInternal.Code, Message: merr.Error()}
			} else {
				resp.Result = b
			}
		}
		_ = c.send(&resp)
	}()
}

func (c *Conn) send(m *Message) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	if c.opts.OnSend != nil {
		c.opts.OnSend(b)
	}
	return c.f.Write(b)
}

// Notify sends a notification.
func (c *Conn) Notify(method string, params any) error {
	b, err := json.Marshal(params)
	if err != nil {
		return err
	}
	return c.send(&Message{JSONRPC: "2.0", Method: method, Params: b})
}

// Call sends a request and waits for its response. On a strict connection
// the result is validated against the method's published schema. If ctx
// ends first, Call sends $/cancelRequest and returns ctx's error.
func (c *Conn) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	b, err := json.Marshal(params)
	if err != nil {
		return nil, fmt.Errorf("wire: %s params: %w", method, err)
	}
	ch := make(chan reply, 1)
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return nil, c.brokenErr(method)
	}
	c.nextID++
	id := c.nextID
	c.pending[id] = ch
	c.mu.Unlock()
	raw := json.RawMessage(strconv.FormatInt(id, 10))
	if err := c.send(&Message{JSONRPC: "2.0", ID: &raw, Method: method, Params: b}); err != nil {
		c.forget(id)
		// The peer stopped reading; what it wrote before that, or its
		// end of output, usually says more than the write error.
		select {
		case <-c.done:
			return nil, c.brokenErr(method)
		case <-time.After(2 * time.Second):
		}
		return nil, c.fail(&ProtocolError{Method: method, Reason: "the host stopped reading its input: " + err.Error()})
	}
	var r reply
	select {
	case r = <-ch:
	case <-c.done:
		// A response read just before the connection broke still counts.
		select {
		case r = <-ch:
		default:
			c.forget(id)
			return nil, c.brokenErr(method)
		}
	case <-ctx.Done():
		c.mu.Lock()
		if _, ok := c.pending[id]; ok {
			delete(c.pending, id)
			c.given[id] = true
		}
		c.mu.Unlock()
		_ = c.Notify(MethodCancel, map[string]any{"id": id})
		return nil, ctx.Err()
	}
	if r.msg.Error != nil {
		if c.opts.Strict {
			if name := ErrorDataSchema(r.msg.Error.Code); name != "" {
				data, _ := json.Marshal(r.msg.Error.Data)
				if v := Validate(name, data); v != nil {
					return nil, &ProtocolError{Method: method, Pointer: "/error/data" + v.Pointer, Reason: v.Reason, Quote: quote(r.line)}
				}
			}
		}
		return nil, r.msg.Error
	}
	if c.opts.Strict {
		if name := ResultSchema(method); name != "" {
			if v := Validate(name, r.msg.Result); v != nil {
				return nil, &ProtocolError{Method: method, Pointer: "/result" + v.Pointer, Reason: v.Reason, Quote: quote(r.line)}
			}
		}
	}
	return r.msg.Result, nil
}

func (c *Conn) forget(id int64) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// brokenErr says why the connection broke, as an error about method.
func (c *Conn) brokenErr(method string) error {
	err := c.Err()
	var pe *ProtocolError
	if errors.As(err, &pe) && pe.Method == "" {
		cp := *pe
		cp.Method = method
		return &cp
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &ProtocolError{Method: method, Reason: ReasonClosed}
	}
	return err
}

// connKey is the context key of the connection a handler serves.
type connKey struct{}

// ConnFrom returns the connection whose peer sent the request a handler is
// answering, so that the handler can call the peer back (a host asking
// approval/request, for one). It returns nil outside a handler.
func ConnFrom(ctx context.Context) *Conn {
	c, _ := ctx.Value(connKey{}).(*Conn)
	return c
}

// validateParams checks the params of a request the peer sent against the
// method's published schema; a method without one is not checked here.
func validateParams(method string, line []byte) error {
	name := ParamsSchema(method)
	if name == "" {
		return nil
	}
	var m struct {
		Params json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal(line, &m); err != nil {
		return &ProtocolError{Method: method, Reason: "not a JSON-RPC 2.0 message: " + err.Error(), Quote: quote(line)}
	}
	params := m.Params
	if len(params) == 0 {
		params = json.RawMessage("{}")
	}
	if v := Validate(name, params); v != nil {
		return &ProtocolError{Pointer: "/params" + v.Pointer, Reason: fmt.Sprintf("its %q request: %s", method, v.Reason), Quote: quote(line)}
	}
	return nil
}

// ReasonClosed is the reason given when a host ends its output while a
// request is pending.
const ReasonClosed = "the host closed its output without answering"
