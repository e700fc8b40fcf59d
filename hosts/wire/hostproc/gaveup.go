package hostproc

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/galaxy-stack/conform/hosts/wire"
)

// A NoAnswerError is a call the host never answered: it did not answer
// within the call's bound, or it exited or closed its output first. It is
// a *wire.ProtocolError (errors.As finds it) that says so by its type, for
// a caller that counts a host's silences (see [Unanswered]). A call not
// answered within its bound has its reason followed by what the harness
// knew then (see the package doc); its durations are in whole seconds.
type NoAnswerError struct{ *wire.ProtocolError }

// Unwrap returns the protocol error.
func (e *NoAnswerError) Unwrap() error { return e.ProtocolError }

// Unanswered reports whether err is, or wraps, a call the host never
// answered (a *NoAnswerError).
func Unanswered(err error) bool {
	var na *NoAnswerError
	return errors.As(err, &na)
}

// A DeadlineError is a call given up on because its caller's deadline
// passed before the host answered it. It unwraps to the call's
// *jsonrpc.CanceledError, and so to context.DeadlineExceeded; its text
// follows the context's with the call and what the harness knew of the
// host then, as a [NoAnswerError]'s does.
type DeadlineError struct {
	Err    error      // the call's *jsonrpc.CanceledError
	Call   GaveUpCall // the call given up on, also kept by [Client.GaveUp]
	Detail string     // what the harness knew of the host
}

func (e *DeadlineError) Error() string {
	s := e.Err.Error() + ": no answer to " + e.Call.String()
	if e.Detail != "" {
		s += "; " + e.Detail
	}
	return s
}

// Unwrap returns the call's *jsonrpc.CanceledError.
func (e *DeadlineError) Unwrap() error { return e.Err }

// A GaveUpCall is a call the harness gave up on because its caller's
// context ended while the host had not answered it.
type GaveUpCall struct {
	Method string // the request's method
	ID     int64  // the request's JSON-RPC id
	// CallID and Tool are the callId and model-facing tool name of a
	// tool/execute; "" for any other method.
	CallID, Tool string
	// Outstanding is how long the call had waited for its answer.
	Outstanding time.Duration
	// Cause is why the caller's context ended (context.Cause).
	Cause error
}

// String names the call and how long it had been outstanding, in whole
// seconds ("under 1s" below one), as in `"tool/execute" (request 7, callId
// "w1", model name "run_command"), outstanding for 2s`: whole seconds keep
// the wall clock's jitter out of the reasons of a result document, which
// are compared across runs.
func (g GaveUpCall) String() string {
	d := "under 1s"
	if s := g.Outstanding.Truncate(time.Second); s > 0 {
		d = s.String()
	}
	return fmt.Sprintf("%s, outstanding for %s", callInfo{callID: g.CallID, tool: g.Tool}.name(g.Method, g.ID), d)
}

func (c *Client) gaveUp(g GaveUpCall) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.abandoned = append(c.abandoned, g)
}

// GaveUp returns the calls the client gave up on because their caller's
// context ended before the host answered, in the order it gave up on them:
// what was outstanding when a run's deadline or a cancellation ended it.
func (c *Client) GaveUp() []GaveUpCall {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.abandoned)
}
