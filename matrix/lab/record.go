package lab

import (
	"context"
	"encoding/json"
	"slices"
	"sync"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/matrix/oracle"
)

// An Entry is one record of a fixture run's transcript: a runtime event of
// some execution, reduced to what identifies it. Absolute paths, times and
// free-form host text are left out.
type Entry struct {
	Execution string `json:"execution"`
	Type      string `json:"type"`
	Turn      int    `json:"turn,omitempty"`
	// Detail says what happened: the stream event type of a model event,
	// the model-facing tool name of a tool event, a checkpoint's reason,
	// a transition "from->to", a context pressure level.
	Detail string `json:"detail,omitempty"`
	// CallID, Canonical, OK and ErrorCode describe a tool event.
	CallID    string         `json:"callId,omitempty"`
	Arguments map[string]any `json:"arguments,omitempty"`
	Canonical string         `json:"canonicalToolId,omitempty"`
	OK        *bool          `json:"ok,omitempty"`
	ErrorCode string         `json:"errorCode,omitempty"`
	// Issues are a completion rejection's issues.
	Issues []string `json:"issues,omitempty"`
	// DelayMs is a model retry's delay.
	DelayMs int64 `json:"delayMs,omitempty"`
	// ModelRequests is the number of round requests the model had received
	// when the event was recorded: it places each request among the events.
	ModelRequests int `json:"modelRequests,omitempty"`
	// Event is the runtime event itself, for the replay transcript (package
	// replay), which keeps only its normalized parts; not reported.
	Event *run.Event `json:"-"`
}

// recorder collects the runtime events of every execution of one fixture
// run, in order.
type recorder struct {
	mu          sync.Mutex
	transcript  []Entry
	sequence    []string
	results     []oracle.ToolResult
	rejections  [][]string
	pressures   []string
	modelEvents int
}

func (r *recorder) add(ev run.Event, requests int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	evc := ev
	e := Entry{Execution: ev.ExecutionID, Type: ev.Type, Turn: ev.ModelTurn, ModelRequests: requests, Event: &evc}
	switch ev.Type {
	case run.EventModel:
		r.modelEvents++
		if ev.Model != nil {
			e.Detail = ev.Model.Type
			if ev.Model.Error != nil {
				e.ErrorCode = ev.Model.Error.Code
			}
		}
	case run.EventToolStart:
		if ev.Call != nil {
			r.sequence = append(r.sequence, ev.Call.Name)
			e.Detail, e.CallID, e.Arguments = ev.Call.Name, ev.Call.ToolCallID, ev.Call.Arguments
		}
	case run.EventToolResult:
		tr := oracle.ToolResult{}
		if ev.Call != nil {
			tr.ToolName = ev.Call.Name
			e.Detail, e.CallID = ev.Call.Name, ev.Call.ToolCallID
		}
		if res := ev.Result; res != nil {
			tr.CanonicalToolID, tr.OK, tr.Summary, tr.Content = res.CanonicalToolID, res.OK, res.Summary, res.Content
			tr.EffectsAuthority, tr.Effects = res.EffectsAuthority, res.Effects
			if res.Error != nil {
				code := res.Error.Code
				tr.ErrorCode = &code
				e.ErrorCode = code
			}
			ok := res.OK
			e.Canonical, e.OK = res.CanonicalToolID, &ok
		}
		r.results = append(r.results, tr)
	case run.EventCompletionRejected:
		r.rejections = append(r.rejections, append([]string{}, ev.Issues...))
		e.Issues = append([]string{}, ev.Issues...)
	case run.EventContextPressure:
		p := ev.Pressure
		r.pressures = append(r.pressures, p)
		e.Detail = p
	case run.EventCheckpoint:
		e.Detail = ev.Reason
		if ev.Checkpoint != nil {
			e.Detail = string(ev.Checkpoint.Reason)
		}
	case run.EventModelRetry:
		e.DelayMs = ev.DelayMs
	case run.EventState:
		if ev.Transition != nil {
			e.Detail = ev.Transition.From + "->" + ev.Transition.To
		}
	}
	r.transcript = append(r.transcript, e)
}

// recordingTrace passes trace events to the port it wraps and records the
// kind of each one the port accepted, and each successful flush (LAB §5
// traceKinds, traceFlushes).
type recordingTrace struct {
	inner   port.Trace
	mu      sync.Mutex
	kinds   []string
	flushes int
	// prompts are the payloads of the prompt_snapshot events, in order.
	prompts []json.RawMessage
}

// PromptSnapshots returns the payloads of the run's prompt_snapshot trace
// events, in order.
func (t *recordingTrace) PromptSnapshots() []json.RawMessage {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.prompts)
}

// use makes inner the port the trace passes events to: the trace of the
// host process that serves the current execution.
func (t *recordingTrace) use(inner port.Trace) {
	t.mu.Lock()
	t.inner = inner
	t.mu.Unlock()
}

func (t *recordingTrace) port() port.Trace {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.inner
}

func (t *recordingTrace) Emit(ctx context.Context, e port.TraceEvent) error {
	if err := t.port().Emit(ctx, e); err != nil {
		return err
	}
	t.mu.Lock()
	t.kinds = append(t.kinds, e.Kind)
	if e.Kind == port.TracePromptSnapshot {
		t.prompts = append(t.prompts, slices.Clone(e.Payload))
	}
	t.mu.Unlock()
	return nil
}

func (t *recordingTrace) Flush(ctx context.Context) error {
	if err := t.port().Flush(ctx); err != nil {
		return err
	}
	t.mu.Lock()
	t.flushes++
	t.mu.Unlock()
	return nil
}

// Flushes returns the number of successful flushes.
func (t *recordingTrace) Flushes() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.flushes
}

func (t *recordingTrace) Kinds() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string{}, t.kinds...)
}
