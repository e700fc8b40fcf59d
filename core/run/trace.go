package run

import (
	"context"
	"fmt"

	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/faults"
	"github.com/galaxy-stack/conform/core/port"
)

// tracer is the trace emitter of one execution segment (RUNTIME §26.2).
type tracer struct {
	port        port.Trace
	clock       port.Clock
	runID       string
	taskID      string
	executionID string
	sequence    int64
	healthy     bool
	finalized   bool
}

func newTracer(p port.Trace, clock port.Clock, runID, taskID, executionID string) *tracer {
	return &tracer{port: p, clock: clock, runID: runID, taskID: taskID, executionID: executionID, healthy: true, finalized: true}
}

// emit records one event. Failures never fail the run; they make the trace
// permanently unhealthy, so it can no longer be finalized.
func (t *tracer) emit(ctx context.Context, kind string, payload any) {
	if t.port == nil {
		return
	}
	t.finalized = false
	t.sequence++
	data := []byte(stableJSON(payload))
	ev := port.TraceEvent{
		EventID:     fmt.Sprintf("%s:%s:%d", t.runID, t.executionID, t.sequence),
		ExecutionID: t.executionID, Kind: kind, Payload: data, RunID: t.runID,
		Sequence: t.sequence, TaskID: t.taskID, Timestamp: checkpoint.FormatTimestamp(t.clock.Now()),
	}
	if ctx.Err() != nil {
		t.healthy = false
		return
	}
	if err := safeCall(func() error { return t.port.Emit(ctx, ev) }); err != nil {
		t.healthy = false
	}
}

// flush durably flushes the trace; finalized afterwards means healthy and
// flushed after the last emit.
func (t *tracer) flush(ctx context.Context) {
	if t.port == nil {
		t.finalized = true
		return
	}
	if ctx.Err() != nil {
		t.healthy, t.finalized = false, false
		return
	}
	if err := safeCall(func() error { return t.port.Flush(ctx) }); err != nil {
		t.healthy, t.finalized = false, false
		return
	}
	t.finalized = t.healthy
}

func (t *tracer) isFinalized() bool {
	return t.port == nil || (t.healthy && t.finalized) || faults.On(faults.CompleteDespiteTraceFailure)
}

// safeCall runs f and turns a panic into an error: a port that panics is a
// port that failed.
func safeCall(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("port panicked: %v", r)
		}
	}()
	return f()
}
