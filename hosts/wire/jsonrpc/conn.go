package jsonrpc

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/galaxy-stack/conform/hosts/wire"
)

// ConnOptions configure a Conn. All fields are optional.
type ConnOptions struct {
	// Handler answers requests from the peer; nil answers every request
	// with wire.ErrMethodNotFound.
	Handler Handler
	// Strict validates every message the peer sends against the published
	// schemas of package wire; the harness's side of a connection is
	// strict.
	Strict bool
	// OnRecv and OnSend observe every message, as sent on the wire. They
	// must not modify line, and must copy it to keep it.
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
	// wire.ProtocolError naming the bound. Zero means unbounded.
	MaxInFlight, MaxRequests int
	// OnAnswered, if set, is called from Run with the method of each call
	// as its response is handed to the caller, before the next message is
	// read.
	OnAnswered func(method string)
	// Admit, if set, is asked about every request and notification the
	// peer sends before it is handled; an error breaks the connection with
	// a wire.ProtocolError carrying the error's text as its reason.
	Admit func(method string) error
}

// A Conn is one side of a JSON-RPC 2.0 connection over a [Framer]. A peer
// that breaks the protocol ends the connection with a *wire.ProtocolError.
type Conn struct {
	f    Framer
	opts ConnOptions

	mu       sync.Mutex
	nextID   int64
	pending  map[int64]pendingCall
	given    map[int64]bool // calls given up on; their late answers are dropped
	inflight map[string]context.CancelFunc
	err      error // set once the connection is broken
	done     chan struct{}
	idle     chan func() // handed to a handler goroutine waiting for work (see spawn)
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
// without parsing it again) and the line, quoted (redacted) only when an
// error needs it. The line is not copied: the framer hands it over for
// good, and the result and the tree share it anyway.
type reply struct {
	msg  *Response
	tree map[string]any
	line []byte
}

// NewConn returns a connection over f. Call Run to start reading.
func NewConn(f Framer, opts ConnOptions) *Conn {
	c := &Conn{
		f:        f,
		opts:     opts,
		pending:  map[int64]pendingCall{},
		given:    map[int64]bool{},
		inflight: map[string]context.CancelFunc{},
		done:     make(chan struct{}),
		idle:     make(chan func()),
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
			var long *lineTooLongError
			if errors.As(err, &long) {
				err = &wire.ProtocolError{Reason: fmt.Sprintf("message longer than the limit of %s bytes (StartOptions.MaxMessage)", groupDigits(long.limit))}
			} else if errors.Is(err, ErrLineTooLong) {
				err = &wire.ProtocolError{Reason: "message longer than the framer's limit"}
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
	var (
		tree    map[string]any
		msg     Message
		err     error
		members envelopeMembers
	)
	if c.opts.Strict {
		// One parse serves every check: the envelope, the params of a
		// request and (in Call) the result are validated on this tree.
		// Its strings share line, which nothing writes to: the framer
		// hands line over for good, OnRecv observes it read-only, and
		// the params and result that share it too reach a handler or a
		// caller only after the checks that read the tree. The same
		// parse finds the members the message is made of.
		t, perr := wire.ViewTreeMembers(line, members.add)
		if perr != nil {
			return &wire.ProtocolError{Reason: "not a JSON object", Quote: wire.Quote(line)}
		}
		tree = t
		name := wire.SchemaResponse
		if _, ok := tree["method"]; ok {
			name = wire.SchemaRequest
		}
		if v := wire.ValidateTree(name, tree); v != nil {
			return &wire.ProtocolError{Pointer: v.Pointer, Reason: "not a JSON-RPC 2.0 message: " + v.Reason, Quote: wire.Quote(line)}
		}
		if m, ok := tree["method"].(string); ok {
			if err := validateParams(m, tree, line); err != nil {
				return err
			}
		}
	}
	if tree != nil {
		// What DecodeMessage would return, without reading the line
		// again; a line it cannot be sure of is left to DecodeMessage.
		msg, err = members.message(tree)
	}
	if tree == nil || err == errUndecided {
		msg, err = DecodeMessage(line)
	}
	if errors.Is(err, errNoID) {
		return &wire.ProtocolError{Reason: "response without an id", Quote: wire.Quote(line)}
	}
	if err != nil {
		return &wire.ProtocolError{Reason: "not a JSON-RPC 2.0 message: " + err.Error(), Quote: wire.Quote(line)}
	}
	switch msg := msg.(type) {
	case *Request:
		return c.serve(ctx, msg)
	case *Response:
		return c.answer(msg, tree, line)
	}
	return nil
}

// answer hands a response to the call waiting for it. A late answer to a
// call given up on is dropped.
func (c *Conn) answer(msg *Response, tree map[string]any, line []byte) error {
	id, err := strconv.ParseInt(string(msg.ID), 10, 64)
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
		return &wire.ProtocolError{Reason: fmt.Sprintf("response to unknown request id %s", msg.ID), Quote: wire.Quote(line)}
	}
	pc.ch <- reply{msg: msg, tree: tree, line: line}
	if c.opts.OnAnswered != nil {
		c.opts.OnAnswered(pc.method)
	}
	return nil
}

// validateParams checks the params of a request the peer sent, taken from
// its parsed tree, against the method's published schema; a method without
// one is not checked here.
func validateParams(method string, tree map[string]any, line []byte) error {
	name := wire.ParamsSchema(method)
	if name == "" {
		return nil
	}
	params, ok := tree["params"]
	if !ok {
		params = map[string]any{}
	}
	if v := wire.ValidateTree(name, params); v != nil {
		return &wire.ProtocolError{Pointer: "/params" + v.Pointer, Reason: fmt.Sprintf("its %q request: %s", method, v.Reason), Quote: wire.Quote(line)}
	}
	return nil
}

// groupDigits writes n with thousands separators, for limits in messages.
func groupDigits(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
