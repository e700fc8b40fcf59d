package jsonrpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/galaxy-stack/conform/hosts/wire"
)

// A Handler answers requests and notifications from the peer. The result is
// marshalled as the response's result; a *wire.Error is sent as the
// response's error, any other error as an internal error with its text.
// The context is cancelled when the peer sends $/cancelRequest for the
// request. Handle is called on a goroutine of its own for each request and
// may call the peer back through [ConnFrom].
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

func (c *Conn) serve(ctx context.Context, msg *Request) error {
	if c.opts.Admit != nil {
		if err := c.opts.Admit(msg.Method); err != nil {
			return &wire.ProtocolError{Reason: err.Error()}
		}
	}
	if msg.Method == wire.MethodCancel {
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
		return &wire.ProtocolError{Reason: fmt.Sprintf("it sent %q while %d of its requests were unanswered (at most %d may be in flight)", msg.Method, c.running, c.opts.MaxInFlight)}
	}
	if c.opts.MaxRequests > 0 && c.served >= c.opts.MaxRequests {
		c.mu.Unlock()
		return &wire.ProtocolError{Reason: fmt.Sprintf("it sent %q after %d requests (at most %d per connection)", msg.Method, c.served, c.opts.MaxRequests)}
	}
	c.running++
	c.served++
	c.mu.Unlock()
	hctx, cancel := context.WithCancel(context.WithValue(ctx, connKey{}, c))
	key := ""
	if msg.IsCall() {
		key = string(msg.ID)
		c.mu.Lock()
		c.inflight[key] = cancel
		c.mu.Unlock()
	}
	c.handlers.Add(1)
	c.spawn(func() {
		defer c.handlers.Done()
		defer cancel()
		var result any
		var err error
		if c.opts.Handler == nil {
			err = wire.ErrMethodNotFound
		} else {
			result, err = c.opts.Handler.Handle(hctx, msg.Method, msg.Params)
		}
		c.mu.Lock()
		c.running--
		if msg.IsCall() {
			delete(c.inflight, key)
		}
		c.mu.Unlock()
		if !msg.IsCall() {
			return
		}
		resp := Response{ID: msg.ID}
		if err != nil {
			var we *wire.Error
			if !errors.As(err, &we) {
				we = &wire.Error{Code: wire.ErrInternal.Code, Message: err.Error()}
			}
			resp.Error = we
		} else {
			b, merr := json.Marshal(result)
			if merr != nil {
				resp.Error = &wire.Error{Code: wire.ErrInternal.Code, Message: merr.Error()}
			} else {
				resp.Result = b
			}
		}
		_ = c.send(&resp)
	})
	return nil
}

// spawn runs f on a goroutine of c's that waits for work, or on a new one.
// A handler's goroutine, once f returns, waits for the next request until
// the connection ends: a new goroutine starts on a small stack, and a
// handler that checks a message against a schema grows it several times
// over, copying it each time.
func (c *Conn) spawn(f func()) {
	select {
	case c.idle <- f:
	default:
		go c.work(f)
	}
}

// work runs f, then whatever spawn hands it, until the connection ends.
func (c *Conn) work(f func()) {
	for {
		f()
		select {
		case f = <-c.idle:
		case <-c.done:
			return
		}
	}
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
