package store

import (
	"context"
	"encoding/json"

	"github.com/galaxy-stack/conform/core/port"
)

// FailingRunStore wraps a run store and makes chosen calls fail (faults on
// put, get and report). Calls no fault hits pass straight through. It is
// safe for concurrent use if the wrapped store is.
type FailingRunStore struct {
	inner port.RunStore
	in    *injector
}

var _ port.RunStore = (*FailingRunStore)(nil)

// NewFailingRunStore wraps inner with faults. It panics if a fault is
// invalid or targets a trace operation: faults are fixed test setup.
func NewFailingRunStore(inner port.RunStore, faults ...Fault) *FailingRunStore {
	return &FailingRunStore{inner: inner, in: newInjector([]Op{OpPut, OpGet, OpReport}, faults)}
}

// CheckpointTrust returns the wrapped store's trust.
func (s *FailingRunStore) CheckpointTrust() string { return s.inner.CheckpointTrust() }

// SaveCheckpoint saves through the wrapped store unless a put fault hits
// this call.
func (s *FailingRunStore) SaveCheckpoint(ctx context.Context, checkpoint json.RawMessage) (port.CheckpointReceipt, error) {
	fault := s.in.next(OpPut)
	if fault != nil && !fault.Committed {
		return port.CheckpointReceipt{}, fault
	}
	receipt, err := s.inner.SaveCheckpoint(ctx, checkpoint)
	if err != nil {
		return receipt, err
	}
	if fault != nil {
		return port.CheckpointReceipt{}, fault
	}
	return receipt, nil
}

// LoadLatestCheckpoint loads through the wrapped store unless a get fault
// hits this call.
func (s *FailingRunStore) LoadLatestCheckpoint(ctx context.Context, runID string) (json.RawMessage, error) {
	if fault := s.in.next(OpGet); fault != nil {
		return nil, fault
	}
	return s.inner.LoadLatestCheckpoint(ctx, runID)
}

// SaveFinalReport saves through the wrapped store unless a report fault
// hits this call.
func (s *FailingRunStore) SaveFinalReport(ctx context.Context, report json.RawMessage) error {
	return s.in.around(OpReport, func() error { return s.inner.SaveFinalReport(ctx, report) })
}

// Calls returns how many calls of op were made, failed ones included.
func (s *FailingRunStore) Calls(op Op) int { return s.in.count(op) }

// Injected returns the failures injected so far, in order.
func (s *FailingRunStore) Injected() []FaultError { return s.in.injected() }

// FailingTrace wraps a trace and makes chosen calls fail (faults on append
// and flush). Calls no fault hits pass straight through.
type FailingTrace struct {
	inner port.Trace
	in    *injector
}

var _ port.Trace = (*FailingTrace)(nil)

// NewFailingTrace wraps inner with faults. It panics if a fault is invalid
// or targets a run-store operation.
func NewFailingTrace(inner port.Trace, faults ...Fault) *FailingTrace {
	return &FailingTrace{inner: inner, in: newInjector([]Op{OpAppend, OpFlush}, faults)}
}

// Emit emits through the wrapped trace unless an append fault hits this
// call.
func (t *FailingTrace) Emit(ctx context.Context, event port.TraceEvent) error {
	return t.in.around(OpAppend, func() error { return t.inner.Emit(ctx, event) })
}

// Flush flushes through the wrapped trace unless a flush fault hits this
// call.
func (t *FailingTrace) Flush(ctx context.Context) error {
	return t.in.around(OpFlush, func() error { return t.inner.Flush(ctx) })
}

// Calls returns how many calls of op were made, failed ones included.
func (t *FailingTrace) Calls(op Op) int { return t.in.count(op) }

// Injected returns the failures injected so far, in order.
func (t *FailingTrace) Injected() []FaultError { return t.in.injected() }
