package hostproc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/jsonrpc"
)

// Call sends one request, bounded by timeout, and decodes the validated
// result into out (if out is non-nil).
func (c *Client) Call(ctx context.Context, method string, params any, timeout time.Duration, out any) error {
	return c.call(ctx, method, callInfo{}, params, timeout, out)
}

// callInfo says which tool/execute a call is, for the errors and records
// that name a call: its callId and model-facing tool name.
type callInfo struct{ callID, tool string }

// call is Call with what it knows of the call, for the error that says it
// hung and the record of a call given up on (see [Client.GaveUp]).
func (c *Client) call(ctx context.Context, method string, info callInfo, params any, timeout time.Duration, out any) error {
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	start := time.Now()
	m := c.watch.mark()
	raw, err := c.conn.Call(tctx, method, params)
	if err != nil {
		var ce *jsonrpc.CanceledError
		if errors.As(err, &ce) {
			if tctx.Err() != nil && ctx.Err() == nil {
				reason := fmt.Sprintf("no answer to %s within %s", info.name(method, ce.ID), timeout)
				if d := c.diagnose(ce.ID, m); d != "" {
					reason += "; " + d
				}
				return &NoAnswerError{&wire.ProtocolError{Method: method, Reason: reason}}
			}
			g := GaveUpCall{Method: method, ID: ce.ID, CallID: info.callID, Tool: info.tool, Outstanding: time.Since(start), Cause: context.Cause(ctx)}
			c.gaveUp(g)
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				// The caller's deadline passed first: as much a silence
				// as one past the call's own bound.
				return &DeadlineError{Err: err, Call: g, Detail: c.diagnose(ce.ID, m)}
			}
			return err
		}
		var pe *wire.ProtocolError
		if errors.As(err, &pe) && (pe.Reason == jsonrpc.ReasonClosed || strings.HasPrefix(pe.Reason, jsonrpc.ReasonWriteFailed)) {
			if r := c.exitReason(); r != jsonrpc.ReasonClosed || pe.Reason == jsonrpc.ReasonClosed {
				cp := *pe
				cp.Reason = r
				return &NoAnswerError{&cp}
			}
		}
		var rpc *wire.Error
		if errors.As(err, &rpc) && err == error(rpc) {
			return &wire.MethodError{Method: method, Err: rpc}
		}
		return err
	}
	if out == nil {
		return nil
	}
	if rm, ok := out.(*json.RawMessage); ok && len(raw) > 0 {
		// The result as sent, shared with the answer's line: decoding it
		// into a RawMessage would only copy it.
		*rm = raw
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return &wire.ProtocolError{Method: method, Reason: "result does not decode: " + err.Error(), Quote: wire.Quote(raw)}
	}
	return nil
}

// name names the call: its method, request id and, for a tool/execute,
// its callId and tool, as in `"tool/execute" (request 7, callId "w1",
// model name "write_file")`.
func (i callInfo) name(method string, id int64) string {
	s := fmt.Sprintf("%q (request %d", method, id)
	if i.callID != "" || i.tool != "" {
		s += fmt.Sprintf(", callId %q, model name %q", i.callID, i.tool)
	}
	return s + ")"
}

func (c *Client) exitReason() string {
	wait := 2 * time.Second
	if c.outputGone.Load() {
		wait = 0 // already waited once: a host that closed its output and lives on
	}
	// The wait is for the host process itself; what follows its exit
	// (killing what it left, draining its standard error) is bounded by the
	// supervisor and may take longer on a loaded machine.
	select {
	case <-c.waited:
	case <-time.After(wait):
		c.outputGone.Store(true)
		return jsonrpc.ReasonClosed
	}
	<-c.exited
	msg := "the host exited without answering"
	if c.waitErr != nil {
		msg += " (" + c.waitErr.Error() + ")"
	}
	if s := c.Stderr(); s != "" {
		msg += "; stderr: " + wire.Quote([]byte(s))
	}
	return msg
}

func (c *Client) timeout() time.Duration {
	if c.opts.CallTimeout > 0 {
		return c.opts.CallTimeout
	}
	return 30 * time.Second
}

// Initialize sends initialize and returns the host's validated answer.
func (c *Client) Initialize(ctx context.Context, p wire.InitializeParams) (wire.InitializeResult, error) {
	var r wire.InitializeResult
	err := c.Call(ctx, wire.MethodInitialize, p, c.timeout(), &r)
	return r, err
}

// ToolSet asks for the host's active tool set.
func (c *Client) ToolSet(ctx context.Context) (port.ToolSet, error) {
	var r port.ToolSet
	err := c.Call(ctx, wire.MethodToolsList, struct{}{}, c.timeout(), &r)
	return r, err
}

// RestoreToolSet asks the host to restore a checkpointed active tool set
// and returns the restored set. A name the host cannot activate or a
// different snapshot hash is a port failure (see wire.AsPortError).
func (c *Client) RestoreToolSet(ctx context.Context, p wire.RestoreParams) (port.ToolSet, error) {
	var r port.ToolSet
	err := c.Call(ctx, wire.MethodToolsRestore, p, c.timeout(), &r)
	return r, err
}

// Execute runs one tool call on the host. Canceling ctx sends
// $/cancelRequest; the host then stops the call (killing a command's
// process group) and its late answer is dropped. A call whose side effects
// are unknown fails with wire.ErrUnknownOutcome.
func (c *Client) Execute(ctx context.Context, p wire.ExecuteParams) (port.ToolResult, error) {
	var r port.ToolResult
	margin := c.opts.ExecuteMargin
	if margin <= 0 {
		margin = DispatchMargin
	}
	timeout := time.Duration(p.TimeoutMs)*time.Millisecond + margin
	c.mu.Lock()
	c.executing++
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.executing--
		c.mu.Unlock()
	}()
	err := c.call(ctx, wire.MethodExecute, callInfo{callID: p.CallID, tool: p.ModelName}, p, timeout, &r)
	return r, err
}

// CaptureFingerprint captures the relevant-workspace fingerprint binding
// active and dirty (CONTRACTS §13.8 capture).
func (c *Client) CaptureFingerprint(ctx context.Context, active []wire.ActiveFile, dirty *string) (wire.WorkspaceState, error) {
	if active == nil {
		active = []wire.ActiveFile{}
	}
	var r wire.FingerprintResult
	err := c.Call(ctx, wire.MethodFingerprint, wire.FingerprintParams{Action: wire.FingerprintCapture, ActiveFiles: active, DirtyStateSummary: dirty}, c.timeout(), &r)
	if err != nil {
		return wire.WorkspaceState{}, err
	}
	if r.State == nil {
		return wire.WorkspaceState{}, &wire.ProtocolError{Method: wire.MethodFingerprint, Pointer: "/result/state", Reason: "required field is missing"}
	}
	return *r.State, nil
}

// VerifyFingerprint re-reads the workspace and compares it with state
// (CONTRACTS §13.8 verify). It returns the current fingerprint and whether
// it matches.
func (c *Client) VerifyFingerprint(ctx context.Context, state wire.WorkspaceState) (string, bool, error) {
	var r wire.FingerprintResult
	err := c.Call(ctx, wire.MethodFingerprint, wire.FingerprintParams{Action: wire.FingerprintVerify, State: &state}, c.timeout(), &r)
	if err != nil {
		return "", false, err
	}
	if r.Matches == nil {
		return "", false, &wire.ProtocolError{Method: wire.MethodFingerprint, Pointer: "/result/matches", Reason: "required field is missing"}
	}
	return r.CurrentFingerprint, *r.Matches, nil
}

// StorePut stores a document durably in the host's trusted store.
func (c *Client) StorePut(ctx context.Context, p wire.StorePutParams) (wire.StorePutResult, error) {
	var r wire.StorePutResult
	err := c.Call(ctx, wire.MethodStorePut, p, c.timeout(), &r)
	return r, err
}

// StoreGet returns the latest document of one kind of a run, or nil.
func (c *Client) StoreGet(ctx context.Context, p wire.StoreGetParams) (json.RawMessage, error) {
	var raw json.RawMessage
	if err := c.Call(ctx, wire.MethodStoreGet, p, c.timeout(), &raw); err != nil {
		return nil, err
	}
	// wire.StoreGetResult's shape, with the document left in the answer's
	// line instead of copied out of it: a document may be tens of MiB.
	r := struct {
		Document jsonrpc.RawView `json:"document"`
	}{Document: jsonrpc.RawView{In: raw}}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, &wire.ProtocolError{Method: wire.MethodStoreGet, Reason: "result does not decode: " + err.Error(), Quote: wire.Quote(raw)}
	}
	if r.Document.Raw == nil || string(r.Document.Raw) == "null" {
		return nil, nil
	}
	return r.Document.Raw, nil
}

// StoreList returns every document of one kind of a run in put order.
func (c *Client) StoreList(ctx context.Context, p wire.StoreListParams) ([]wire.StoreEntry, error) {
	var r wire.StoreListResult
	err := c.Call(ctx, wire.MethodStoreList, p, c.timeout(), &r)
	return r.Entries, err
}

// TraceAppend appends one event to the host's trace.
func (c *Client) TraceAppend(ctx context.Context, e wire.TraceEvent) error {
	return c.Call(ctx, wire.MethodTraceAppend, wire.TraceAppendParams{Event: e}, c.timeout(), nil)
}

// TraceFlush makes every appended event durable and returns how many
// events the durable trace holds.
func (c *Client) TraceFlush(ctx context.Context) (int, error) {
	var r wire.TraceFlushResult
	err := c.Call(ctx, wire.MethodTraceFlush, struct{}{}, c.timeout(), &r)
	return r.DurableEvents, err
}

// TraceList returns the durable trace of one run.
func (c *Client) TraceList(ctx context.Context, runID string) ([]wire.TraceEvent, error) {
	var r wire.TraceListResult
	err := c.Call(ctx, wire.MethodTraceList, wire.TraceListParams{RunID: runID}, c.timeout(), &r)
	return r.Events, err
}
