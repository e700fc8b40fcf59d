package reference

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/jsonrpc"
)

// fileTrace is the durable trace (CONTRACTS §13.9): accepted events are
// appended, one JSON line each, to <storeDir>/trace/events.jsonl, and
// trace/flush syncs the file to stable storage. It checks events as the
// original memory trace port does (LAB §18.1): non-blank IDs, a parseable
// timestamp, unique event IDs, and sequences strictly increasing within
// one execution. A fresh host process on the same storeDir continues the
// same trace.
type fileTrace struct {
	path     string
	volatile bool // fault: flush does not sync and events stay in memory

	mu       sync.Mutex
	f        *os.File
	loaded   bool
	ids      map[string]bool
	last     map[string]int64
	events   []wire.TraceEvent // volatile mode only
	own      []wire.TraceEvent // what this process appended (TraceNotReloaded fault)
	pending  []string          // lines not yet written (TraceFlushAsync fault)
	appended int
}

func openTrace(storeDir string, volatile bool) (*fileTrace, error) {
	dir := filepath.Join(storeDir, "trace")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	return &fileTrace{path: filepath.Join(dir, "events.jsonl"), volatile: volatile, ids: map[string]bool{}, last: map[string]int64{}}, nil
}

func traceFailure(code, msg string) error {
	return wire.PortFailure(&port.Error{Code: code, Message: msg})
}

// read returns the events in the trace file, in append order.
func (t *fileTrace) read() ([]wire.TraceEvent, error) {
	if t.volatile {
		return append([]wire.TraceEvent{}, t.events...), nil
	}
	b, err := os.ReadFile(t.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []wire.TraceEvent
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), jsonrpc.MaxLine)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var e wire.TraceEvent
		if err := json.Unmarshal(line, &e); err != nil {
			// A torn last line from a crash before flush is not durable
			// and is ignored.
			continue
		}
		out = append(out, e)
	}
	return out, sc.Err()
}

// load reads the existing trace once, so that uniqueness and ordering
// hold across host processes.
func (t *fileTrace) load() error {
	if t.loaded {
		return nil
	}
	evs, err := t.read()
	if err != nil {
		return err
	}
	for _, e := range evs {
		t.ids[e.EventID] = true
		t.last[executionKey(e)] = e.Sequence
	}
	t.appended = len(evs)
	t.loaded = true
	return nil
}

func executionKey(e wire.TraceEvent) string {
	return e.RunID + "\x00" + e.TaskID + "\x00" + e.ExecutionID
}

func (s *session) traceAppend(ctx context.Context, p wire.TraceAppendParams) (struct{}, error) {
	if ctx.Err() != nil {
		return struct{}{}, traceFailure(port.CodeCanceled, "Trace emission canceled.")
	}
	t := s.trace
	e := p.Event
	if _, err := time.Parse(time.RFC3339Nano, e.Timestamp); err != nil {
		return struct{}{}, traceFailure(port.CodeInvalidInput, "Trace event timestamp is not a valid date.")
	}
	var payload map[string]any
	if json.Unmarshal(e.Payload, &payload) != nil || payload == nil {
		return struct{}{}, traceFailure(port.CodeInvalidInput, "Trace event payload must be a JSON object.")
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.load(); err != nil {
		return struct{}{}, traceFailure(port.CodeIOError, err.Error())
	}
	if t.ids[e.EventID] {
		return struct{}{}, traceFailure(port.CodeConflict, fmt.Sprintf("Trace event '%s' was already recorded.", e.EventID))
	}
	if last, ok := t.last[executionKey(e)]; ok && e.Sequence <= last {
		return struct{}{}, traceFailure(port.CodeConflict, "Trace sequences must increase monotonically within one execution.")
	}
	line, err := compactJSON(e)
	if err != nil {
		return struct{}{}, traceFailure(port.CodeInvalidInput, err.Error())
	}
	if t.volatile {
		t.events = append(t.events, e)
	} else if s.faults.TraceFlushAsync {
		t.pending = append(t.pending, line)
	} else {
		if t.f == nil {
			if t.f, err = os.OpenFile(t.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600); err != nil {
				return struct{}{}, traceFailure(port.CodeIOError, err.Error())
			}
		}
		if _, err := t.f.WriteString(line + "\n"); err != nil {
			return struct{}{}, traceFailure(port.CodeIOError, err.Error())
		}
	}
	t.ids[e.EventID] = true
	t.last[executionKey(e)] = e.Sequence
	t.appended++
	if s.faults.TraceNotReloaded {
		t.own = append(t.own, e)
	}
	return struct{}{}, nil
}

func (s *session) traceFlush(ctx context.Context, _ struct{}) (wire.TraceFlushResult, error) {
	if ctx.Err() != nil {
		return wire.TraceFlushResult{}, traceFailure(port.CodeCanceled, "Trace flush canceled.")
	}
	t := s.trace
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.load(); err != nil {
		return wire.TraceFlushResult{}, traceFailure(port.CodeIOError, err.Error())
	}
	if s.faults.TraceFlushAsync {
		t.flushLater()
	}
	if t.f != nil && !t.volatile {
		if err := t.f.Sync(); err != nil {
			return wire.TraceFlushResult{}, traceFailure(port.CodeIOError, err.Error())
		}
		if err := syncDir(filepath.Dir(t.path)); err != nil {
			return wire.TraceFlushResult{}, traceFailure(port.CodeIOError, err.Error())
		}
	}
	return wire.TraceFlushResult{DurableEvents: t.appended}, nil
}

func (s *session) traceList(ctx context.Context, p wire.TraceListParams) (wire.TraceListResult, error) {
	t := s.trace
	t.mu.Lock()
	defer t.mu.Unlock()
	evs, err := t.read()
	if err != nil {
		return wire.TraceListResult{}, traceFailure(port.CodeIOError, err.Error())
	}
	if s.faults.TraceNotReloaded {
		evs = t.own
	}
	out := []wire.TraceEvent{}
	for _, e := range evs {
		if e.RunID == p.RunID {
			out = append(out, e)
		}
	}
	return wire.TraceListResult{Events: s.ownSequence(out)}, nil
}

func (t *fileTrace) close() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.f != nil {
		_ = t.f.Sync()
		_ = t.f.Close()
		t.f = nil
	}
}
