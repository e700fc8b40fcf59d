package jsonrpc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/galaxy-stack/conform/hosts/wire"
)

// send writes m, whose params or result json.Marshal produced (see
// encodeMarshaled).
func (c *Conn) send(m Message) error {
	b, err := encodeMarshaled(m)
	if err != nil {
		return err
	}
	if bytes.IndexByte(b, '\n') >= 0 {
		return errors.New("jsonrpc: message contains a newline")
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
	return c.send(&Request{Method: method, Params: b})
}

// Call sends a request and waits for its response. On a strict connection
// the result is validated against the method's published schema. An error
// the peer answered with is returned as its *wire.Error. If ctx ends
// first, Call sends $/cancelRequest and returns a *CanceledError, which
// unwraps to ctx's error.
func (c *Conn) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	b, err := json.Marshal(params)
	if err != nil {
		return nil, fmt.Errorf("jsonrpc: %s params: %w", method, err)
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
	// send never blocks on the peer: a peer that stops reading breaks the
	// connection from the writer, which ends this wait through c.done.
	if err := c.send(&Request{ID: json.RawMessage(strconv.FormatInt(id, 10)), Method: method, Params: b}); err != nil {
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
		_ = c.Notify(wire.MethodCancel, map[string]any{"id": id})
		return nil, &CanceledError{ID: id, Method: method, Err: ctx.Err()}
	}
	if r.msg.Error != nil {
		if c.opts.Strict {
			if name := wire.ErrorDataSchema(r.msg.Error.Code); name != "" {
				var data any
				if e, ok := r.tree["error"].(map[string]any); ok {
					data = e["data"]
				}
				if v := wire.ValidateTree(name, data); v != nil {
					return nil, &wire.ProtocolError{Method: method, Pointer: "/error/data" + v.Pointer, Reason: v.Reason, Quote: wire.Quote(r.line)}
				}
			}
		}
		return nil, r.msg.Error
	}
	if c.opts.Strict {
		if name := wire.ResultSchema(method); name != "" {
			if v := wire.ValidateTree(name, r.tree["result"]); v != nil {
				return nil, &wire.ProtocolError{Method: method, Pointer: "/result" + v.Pointer, Reason: v.Reason, Quote: wire.Quote(r.line)}
			}
		}
	}
	return r.msg.Result, nil
}

// A CanceledError is the error of a Call whose context ended before the
// peer answered: the call was given up, $/cancelRequest sent and a late
// answer will be dropped. Its text is the context's error's.
type CanceledError struct {
	ID     int64  // the request's id
	Method string // the request's method
	Err    error  // the context's error
}

func (e *CanceledError) Error() string { return e.Err.Error() }

// Unwrap returns the context's error.
func (e *CanceledError) Unwrap() error { return e.Err }

func (c *Conn) forget(id int64) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// brokenErr says why the connection broke, as an error about method.
func (c *Conn) brokenErr(method string) error {
	err := c.Err()
	var pe *wire.ProtocolError
	if errors.As(err, &pe) && pe.Method == "" {
		cp := *pe
		cp.Method = method
		return &cp
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &wire.ProtocolError{Method: method, Reason: ReasonClosed}
	}
	return err
}

// ReasonClosed is the reason given when a host ends its output while a
// request is pending.
const ReasonClosed = "the host closed its output without answering"
