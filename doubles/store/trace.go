package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/galaxy-stack/conform/core/port"
)

// Trace is the memory trace (LAB §18.1). Emit validates and stores a copy of
// each event; Flush counts flushes. Every failure is a non-retryable
// *port.Error. It is safe for concurrent use.
//
// Unlike the original, Emit does not compare the event's run and task IDs
// with a separate run context: Go ports get only a context.Context, and the
// event carries its own correlation.
type Trace struct {
	mu      sync.Mutex
	events  []port.TraceEvent
	ids     map[string]bool
	lastSeq map[executionKey]int64
	flushes int
}

type executionKey struct{ runID, taskID, executionID string }

var _ port.Trace = (*Trace)(nil)

// NewTrace returns an empty memory trace.
func NewTrace() *Trace {
	return &Trace{ids: map[string]bool{}, lastSeq: map[executionKey]int64{}}
}

// Emit records a copy of event. It fails with CANCELED ("Trace emission
// canceled.") or DEADLINE_EXCEEDED ("Trace emission deadline elapsed.")
// when ctx is done; with INVALID_INPUT when the event ID or execution ID is
// empty, the sequence negative or the timestamp not an ISO-8601 time, or the
// payload not a JSON object; with CONFLICT when the event ID was already
// recorded or the sequence does not increase within its (run, task,
// execution).
func (t *Trace) Emit(ctx context.Context, event port.TraceEvent) error {
	if err := contextError(ctx, "Trace emission canceled.", "Trace emission deadline elapsed."); err != nil {
		return err
	}
	if event.EventID == "" || event.ExecutionID == "" || event.Sequence < 0 || !validTimestamp(event.Timestamp) {
		return failure(port.CodeInvalidInput, "Trace event id, sequence, or timestamp is invalid.")
	}
	if !isObject(event.Payload) {
		return failure(port.CodeInvalidInput, "Trace payload must be a JSON object.")
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ids[event.EventID] {
		return failure(port.CodeConflict, "Trace event id '"+event.EventID+"' already exists.")
	}
	key := executionKey{event.RunID, event.TaskID, event.ExecutionID}
	if last, ok := t.lastSeq[key]; ok && event.Sequence <= last {
		return failure(port.CodeConflict, "Trace sequences must increase monotonically within one execution.")
	}
	t.events = append(t.events, event.Clone())
	t.ids[event.EventID] = true
	t.lastSeq[key] = event.Sequence
	return nil
}

// Flush counts one flush. It fails with CANCELED ("Trace flush canceled.")
// or DEADLINE_EXCEEDED ("Trace flush deadline elapsed.") when ctx is done.
func (t *Trace) Flush(ctx context.Context) error {
	if err := contextError(ctx, "Trace flush canceled.", "Trace flush deadline elapsed."); err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.flushes++
	return nil
}

// Events returns copies of the recorded events, in emission order.
func (t *Trace) Events() []port.TraceEvent {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]port.TraceEvent, len(t.events))
	for i, e := range t.events {
		out[i] = e.Clone()
	}
	return out
}

// Kinds returns the kind of every recorded event, in emission order (LAB §5
// traceKinds).
func (t *Trace) Kinds() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]string, len(t.events))
	for i, e := range t.events {
		out[i] = e.Kind
	}
	return out
}

// FlushCount returns the number of successful flushes (LAB §5 traceFlushes).
func (t *Trace) FlushCount() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.flushes
}

func failure(code, message string) *port.Error {
	return &port.Error{Code: code, Message: message}
}

func contextError(ctx context.Context, canceled, deadline string) error {
	switch err := ctx.Err(); {
	case err == nil:
		return nil
	case errors.Is(err, context.DeadlineExceeded):
		return failure(port.CodeDeadlineExceeded, deadline)
	default:
		return failure(port.CodeCanceled, canceled)
	}
}

// validTimestamp accepts an RFC 3339 time, the ISO-8601 form the core
// emits.
func validTimestamp(s string) bool {
	_, err := time.Parse(time.RFC3339Nano, s)
	return err == nil
}

func isObject(b json.RawMessage) bool {
	b = bytes.TrimSpace(b)
	return len(b) > 0 && b[0] == '{' && json.Valid(b)
}
