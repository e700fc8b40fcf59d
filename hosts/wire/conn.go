package wire

import (
	"bytes"
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
	// WriteStall bounds how long one write may block before the peer is
	// declared to have stopped reading its input, and a peer that lets 256
	// messages pile up is declared so at once; zero means
	// DefaultWriteStall. A negative WriteStall waits for the peer without
	// bound, as a host's side does.
	WriteStall time.Duration
	// MaxInFlight bounds the peer's requests being handled at once, and
	// MaxRequests the peer's requests over the connection's life; a
	// request over either bound breaks the connection with a
	// ProtocolError naming the bound. Zero means unbounded.
	MaxInFlight, MaxRequests int
	// OnAnswered, if set, is called from Run with the method of each call
	// as its response is handed to the caller, before the next message is
	// read.
	OnAnswered func(method string)
	// Admit, if set, is asked about every request and notification the
	// peer sends before it is handled; an error breaks the connection with
	// a ProtocolError carrying the error's text as its reason.
	Admit func(method string) error
}

// A Conn is one side of a JSON-RPC 2.0 connection over a Framer.
type Conn struct {
	f    *Framer
	opts ConnOptions

	mu       sync.Mutex
	nextID   int64
	pending  map[int64]pendingCall
	given    map[int64]bool // calls given up on; their late answers are dropped
	inflight map[string]context.CancelFunc
	err      error // set once the connection is broken
	done     chan struct{}
	handlers sync.WaitGroup
	out      *writer
	running  int // peer requests being handled
	served   int // peer requests over the connection's life
}

// A pendingCall is a call waiting for its response.
type pendingCall struct {
	ch     chan reply
	method string
}

// A reply is a response read for a pending call: the message, the parsed
// tree of the line on a strict connection (so the result is validated
// without parsing it again) and a quote of the line for errors.
type reply struct {
	msg   *Message
	tree  map[string]any
	quote string
}

// NewConn returns a connection over f. Call Run to start reading.
func NewConn(f *Framer, opts ConnOptions) *Conn {
	c := &Conn{
		f:        f,
		opts:     opts,
		pending:  map[int64]pendingCall{},
		given:    map[int64]bool{},
		inflight: map[string]context.CancelFunc{},
		done:     make(chan struct{}),
	}
	c.out = newWriter(c, opts.WriteStall)
	return c
}

// Run reads messages until the input ends or the peer breaks the protocol,
// and returns why it stopped (io.EOF at a clean end). Pending calls fail with
// the same error.
func (c *Conn) Run(ctx context.Context) error {
	c.out.start()
	for {
		line, err := c.f.Read()
		if err != nil {
			if errors.Is(err, ErrLineTooLong) {
				err = &ProtocolError{Reason: fmt.Sprintf("message longer than the limit of %s bytes (StartOptions.MaxMessage)", groupDigits(c.f.MaxLine()))}
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

// Wait blocks until every request handler started by Run has returned and
// their answers are written (or the connection broke, or a write stalled
// past ConnOptions.WriteStall).
func (c *Conn) Wait() {
	c.handlers.Wait()
	c.out.flush()
}

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
	var tree map[string]any
	if c.opts.Strict {
		// One parse serves every check: the envelope, the params of a
		// request and (in Call) the result are validated on this tree.
		t, err := parseTree(line)
		if err != nil {
			return &ProtocolError{Reason: "not a JSON object", Quote: Quote(line)}
		}
		tree = t
		name := SchemaResponse
		if _, ok := tree["method"]; ok {
			name = SchemaRequest
		}
		if v := validateTree(name, tree); v != nil {
			return &ProtocolError{Pointer: v.Pointer, Reason: "not a JSON-RPC 2.0 message: " + v.Reason, Quote: Quote(line)}
		}
		if m, ok := tree["method"].(string); ok {
			if err := validateParams(m, tree, line); err != nil {
				return err
			}
		}
	}
	var msg Message
	if err := json.Unmarshal(line, &msg); err != nil {
		return &ProtocolError{Reason: "not a JSON-RPC 2.0 message: " + err.Error(), Quote: Quote(line)}
	}
	if msg.IsRequest() {
		return c.serve(ctx, &msg)
	}
	if msg.ID == nil {
		return &ProtocolError{Reason: "response without an id", Quote: Quote(line)}
	}
	id, err := strconv.ParseInt(string(*msg.ID), 10, 64)
	c.mu.Lock()
	pc, ok := c.pending[id]
	delete(c.pending, id)
	late := c.given[id]
	delete(c.given, id)
	c.mu.Unlock()
	if late {
		return nil
	}
	if err != nil || !ok {
		return &ProtocolError{Reason: fmt.Sprintf("response to unknown request id %s", *msg.ID), Quote: Quote(line)}
	}
	pc.ch <- reply{msg: &msg, tree: tree, quote: Quote(line)}
	if c.opts.OnAnswered != nil {
		c.opts.OnAnswered(pc.method)
	}
	return nil
}

func (c *Conn) serve(ctx context.Context, msg *Message) error {
	if c.opts.Admit != nil {
		if err := c.opts.Admit(msg.Method); err != nil {
			return &ProtocolError{Reason: err.Error()}
		}
	}
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
		return nil
	}
	c.mu.Lock()
	if c.opts.MaxInFlight > 0 && c.running >= c.opts.MaxInFlight {
		c.mu.Unlock()
		return &ProtocolError{Reason: fmt.Sprintf("it sent %q while %d of its requests were unanswered (at most %d may be in flight)", msg.Method, c.running, c.opts.MaxInFlight)}
	}
	if c.opts.MaxRequests > 0 && c.served >= c.opts.MaxRequests {
		c.mu.Unlock()
		return &ProtocolError{Reason: fmt.Sprintf("it sent %q after %d requests (at most %d per connection)", msg.Method, c.served, c.opts.MaxRequests)}
	}
	c.running++
	c.served++
	c.mu.Unlock()
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
		c.mu.Lock()
		c.running--
		if msg.ID != nil {
			delete(c.inflight, key)
		}
		c.mu.Unlock()
		if msg.ID == nil {
			return
		}
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
	return nil
}

func (c *Conn) send(m *Message) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	if bytes.IndexByte(b, '\n') >= 0 {
		return fmt.Errorf("wire: message contains a newline")
	}
	if c.opts.OnSend != nil {
		c.opts.OnSend(b)
	}
	return c.out.enqueue(b)
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
	c.pending[id] = pendingCall{ch: ch, method: method}
	c.mu.Unlock()
	raw := json.RawMessage(strconv.FormatInt(id, 10))
	// send never blocks on the peer: a peer that stops reading breaks the
	// connection from the writer, which ends this wait through c.done.
	if err := c.send(&Message{JSONRPC: "2.0", ID: &raw, Method: method, Params: b}); err != nil {
		c.forget(id)
		return nil, c.brokenErr(method)
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
				var data any
				if e, ok := r.tree["error"].(map[string]any); ok {
					data = e["data"]
				}
				if v := validateTree(name, data); v != nil {
					return nil, &ProtocolError{Method: method, Pointer: "/error/data" + v.Pointer, Reason: v.Reason, Quote: r.quote}
				}
			}
		}
		return nil, r.msg.Error
	}
	if c.opts.Strict {
		if name := ResultSchema(method); name != "" {
			if v := validateTree(name, r.tree["result"]); v != nil {
				return nil, &ProtocolError{Method: method, Pointer: "/result" + v.Pointer, Reason: v.Reason, Quote: r.quote}
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

// validateParams checks the params of a request the peer sent, taken from
// its parsed tree, against the method's published schema; a method without
// one is not checked here.
func validateParams(method string, tree map[string]any, line []byte) error {
	name := ParamsSchema(method)
	if name == "" {
		return nil
	}
	params, ok := tree["params"]
	if !ok {
		params = map[string]any{}
	}
	if v := validateTree(name, params); v != nil {
		return &ProtocolError{Pointer: "/params" + v.Pointer, Reason: fmt.Sprintf("its %q request: %s", method, v.Reason), Quote: Quote(line)}
	}
	return nil
}

// ReasonClosed is the reason given when a host ends its output while a
// request is pending.
const ReasonClosed = "the host closed its output without answering"
