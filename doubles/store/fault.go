package store

import (
	"errors"
	"fmt"
	"slices"
	"sync"
)

// An Op names one operation of a run store or trace that a Fault can
// target.
type Op string

// Operations a Fault can target. The names follow the host protocol's
// store/put, store/get, trace/append and trace/flush.
const (
	OpPut    Op = "put"    // RunStore.SaveCheckpoint
	OpGet    Op = "get"    // RunStore.LoadLatestCheckpoint
	OpReport Op = "report" // RunStore.SaveFinalReport
	OpAppend Op = "append" // Trace.Emit
	OpFlush  Op = "flush"  // Trace.Flush
)

// ErrInjected is wrapped by every error a failing store or trace injects;
// match it with errors.Is.
var ErrInjected = errors.New("injected failure")

// Fault makes the Nth call (1-based, counted per operation) of Op fail.
// Without Committed the call fails before it reaches the wrapped store, so
// nothing is written. With Committed the call reaches the wrapped store
// first and then fails anyway: the write is durable but its acknowledgement
// is lost (if the wrapped call itself fails, its own error is returned).
// Committed applies only to writes (put, report, append, flush); a committed
// get is invalid.
type Fault struct {
	Op        Op   `json:"op"`
	Nth       int  `json:"nth"`
	Committed bool `json:"committed,omitempty"`
}

// Validate reports whether f is well formed.
func (f Fault) Validate() error {
	if !slices.Contains([]Op{OpPut, OpGet, OpReport, OpAppend, OpFlush}, f.Op) {
		return fmt.Errorf("store: fault operation %q is unknown", f.Op)
	}
	if f.Nth < 1 {
		return fmt.Errorf("store: fault on %q call %d: calls count from 1", f.Op, f.Nth)
	}
	if f.Committed && f.Op == OpGet {
		return fmt.Errorf("store: fault on %q cannot be committed: it writes nothing", f.Op)
	}
	return nil
}

// FaultError is the error a failing store or trace returns. It wraps
// ErrInjected.
type FaultError struct {
	Op        Op   // the failed operation
	Call      int  // its 1-based call number
	Committed bool // the write was made durable before the failure
}

// Error describes the injected failure.
func (e *FaultError) Error() string {
	if e.Committed {
		return fmt.Sprintf("store: %s call %d committed, then its acknowledgement failed: %v", e.Op, e.Call, ErrInjected)
	}
	return fmt.Sprintf("store: %s call %d failed: %v", e.Op, e.Call, ErrInjected)
}

// Unwrap returns ErrInjected.
func (e *FaultError) Unwrap() error { return ErrInjected }

// injector counts calls per operation and says which fault, if any, hits
// the current call.
type injector struct {
	faults []Fault

	mu    sync.Mutex
	calls map[Op]int
	fired []FaultError
}

func newInjector(allowed []Op, faults []Fault) *injector {
	for _, f := range faults {
		if err := f.Validate(); err != nil {
			panic(err)
		}
		if !slices.Contains(allowed, f.Op) {
			panic(fmt.Sprintf("store: fault operation %q does not apply here (want one of %q)", f.Op, allowed))
		}
	}
	return &injector{faults: slices.Clone(faults), calls: map[Op]int{}}
}

// next counts one call of op and returns the fault that hits it, or nil.
func (in *injector) next(op Op) *FaultError {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.calls[op]++
	n := in.calls[op]
	for _, f := range in.faults {
		if f.Op == op && f.Nth == n {
			e := FaultError{Op: op, Call: n, Committed: f.Committed}
			in.fired = append(in.fired, e)
			return &e
		}
	}
	return nil
}

// around runs do, the wrapped call of op, unless the fault that hits this
// call (if any) fails it before it commits; a committed fault fails it
// after do succeeded.
func (in *injector) around(op Op, do func() error) error {
	fault := in.next(op)
	if fault != nil && !fault.Committed {
		return fault
	}
	if err := do(); err != nil {
		return err
	}
	if fault != nil {
		return fault
	}
	return nil
}

func (in *injector) count(op Op) int {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.calls[op]
}

func (in *injector) injected() []FaultError {
	in.mu.Lock()
	defer in.mu.Unlock()
	return slices.Clone(in.fired)
}
