package compare

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/google/go-cmp/cmp"

	"github.com/galaxy-stack/conform/matrix/replay"
)

// The aspects of a run a mismatch can touch.
const (
	AspectTools     = "tool sequence"   // the calls made: names and arguments
	AspectEffects   = "effects"         // each result: ok, error code, trust, effects other than writes
	AspectEvidence  = "evidence"        // write evidence of results and of the run, checkpoint audits
	AspectWorkspace = "final workspace" // the harness's snapshot of the final workspace
	AspectRun       = "run"             // anything else: model requests, core events, status
)

// A Mismatch is where the transcript of one host first differs from the
// baseline host's.
type Mismatch struct {
	// Hosts are the baseline host and the host that differs.
	Hosts [2]string `json:"hosts"`
	// Where names the divergent part: "event 12 (tool_result)" or "final".
	Where string `json:"where"`
	// Event is the 1-based index of the first divergent event, 0 for the
	// final section.
	Event int `json:"event,omitempty"`
	// Kind is the divergent event's kind, "final" for the final section.
	Kind string `json:"kind"`
	// Field is the first field that differs (go-cmp's path:
	// "Result.ErrorCode", "Workspace[3].Hash").
	Field string `json:"field"`
	// Values are the divergent event (or final section) of each host as
	// JSON, null for an event one of them does not have.
	Values [2]json.RawMessage `json:"values"`
	// Diff is go-cmp's diff of it, "-" the baseline, "+" the other host.
	Diff string `json:"diff"`
	// Contract is the contract sentence that governs the field, or
	// HostsChoice. When the two events are of different kinds (one host
	// made a state transition where the other answered a tool result), it
	// is the sentence of the first tool result that differs, which
	// ResultEvent (1-based, of the baseline; 0 for none) and ResultField
	// name.
	Contract    string `json:"contract"`
	ResultEvent int    `json:"resultEvent,omitempty"`
	ResultField string `json:"resultField,omitempty"`
}

// aspects returns the aspects in which a and b differ, in the order of the
// constants.
func aspects(a, b *replay.Transcript) []string {
	var out []string
	if !cmp.Equal(calls(a), calls(b)) {
		out = append(out, AspectTools)
	}
	ra, wa := results(a)
	rb, wb := results(b)
	if !cmp.Equal(ra, rb) {
		out = append(out, AspectEffects)
	}
	if !cmp.Equal(wa, wb) || !cmp.Equal(a.Final.Writes, b.Final.Writes) || !cmp.Equal(a.Final.Checkpoints, b.Final.Checkpoints) || !cmp.Equal(checkpoints(a), checkpoints(b)) {
		out = append(out, AspectEvidence)
	}
	if !cmp.Equal(a.Final.Workspace, b.Final.Workspace) {
		out = append(out, AspectWorkspace)
	}
	if len(out) == 0 && !cmp.Equal(a, b) {
		out = append(out, AspectRun)
	}
	return out
}

func calls(t *replay.Transcript) []replay.Call {
	var out []replay.Call
	for _, e := range t.Events {
		if e.Kind == "tool_start" && e.Call != nil {
			out = append(out, *e.Call)
		}
	}
	return out
}

// results returns the results without their write evidence, and the write
// evidence apart.
func results(t *replay.Transcript) ([]replay.Result, [][]replay.Write) {
	var rs []replay.Result
	var ws [][]replay.Write
	for _, e := range t.Events {
		if e.Result == nil {
			continue
		}
		r := *e.Result
		if r.Effects != nil {
			fx := *r.Effects
			ws = append(ws, fx.Writes)
			fx.Writes = nil
			r.Effects = &fx
		}
		rs = append(rs, r)
	}
	return rs, ws
}

func checkpoints(t *replay.Transcript) []any {
	var out []any
	for _, e := range t.Events {
		if e.Checkpoint != nil {
			out = append(out, *e.Checkpoint)
		}
	}
	return out
}

// mismatch returns where b (of host hb) first differs from a (of ha), nil
// when they are equal.
func mismatch(ha, hb string, a, b *replay.Transcript) *Mismatch {
	d := replay.Diverge(a, b)
	if d == nil {
		return nil
	}
	m := &Mismatch{Hosts: [2]string{ha, hb}, Where: d.Where, Diff: d.Diff}
	var va, vb any
	switch {
	case d.Index >= 0:
		m.Event = d.Index + 1
		var ea, eb *replay.Event
		if d.Index < len(a.Events) {
			ea = &a.Events[d.Index]
			m.Kind = ea.Kind
		}
		if d.Index < len(b.Events) {
			eb = &b.Events[d.Index]
			if m.Kind == "" {
				m.Kind = eb.Kind
			}
		}
		va, vb = ea, eb
		if ea != nil && eb != nil {
			m.Field = firstField(*ea, *eb)
		}
	case d.Where == "final":
		m.Kind = "final"
		va, vb = a.Final, b.Final
		m.Field = firstField(a.Final, b.Final)
	default:
		m.Kind = d.Where
		va, vb = a, b
	}
	m.Values[0], m.Values[1] = marshal(va), marshal(vb)
	m.Contract = governing(m.Kind, m.Field)
	if m.Field == "Kind" || (d.Index >= 0 && m.Field == "") {
		if ev, field, ok := firstResult(a, b); ok {
			m.ResultEvent, m.ResultField = ev, field
			m.Contract = governing("tool_result", field)
		}
	}
	return m
}

// firstResult returns the event (1-based, in a) and the field of the first
// tool result in which a and b differ, results paired in order; a result
// one of them lacks has field "".
func firstResult(a, b *replay.Transcript) (int, string, bool) {
	ra, rb := resultEvents(a), resultEvents(b)
	for k := range max(len(ra), len(rb)) {
		switch {
		case k >= len(ra):
			return 0, "", true
		case k >= len(rb):
			return ra[k] + 1, "", true
		}
		ea, eb := a.Events[ra[k]], b.Events[rb[k]]
		if !cmp.Equal(ea.Result, eb.Result) {
			return ra[k] + 1, firstField(ea, eb), true
		}
	}
	return 0, "", false
}

func resultEvents(t *replay.Transcript) []int {
	var out []int
	for i, e := range t.Events {
		if e.Result != nil {
			out = append(out, i)
		}
	}
	return out
}

// marshal writes v as compact JSON without HTML escapes ("->" stays).
func marshal(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return json.RawMessage("null")
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}

// firstField returns go-cmp's path of the first field in which a and b
// differ, without the leading dot.
func firstField(a, b any) string {
	var r fieldReporter
	cmp.Equal(a, b, cmp.Reporter(&r))
	return strings.TrimPrefix(r.first, ".")
}

// fieldReporter keeps the path of the first difference go-cmp reports.
type fieldReporter struct {
	path  cmp.Path
	first string
}

func (r *fieldReporter) PushStep(ps cmp.PathStep) { r.path = append(r.path, ps) }
func (r *fieldReporter) PopStep()                 { r.path = r.path[:len(r.path)-1] }
func (r *fieldReporter) Report(rs cmp.Result) {
	if !rs.Equal() && r.first == "" {
		r.first = pathString(r.path)
	}
}

// pathString writes a path as ".Result.Effects.Writes[0].Path": struct
// fields and slice indexes, map keys in brackets; pointer steps left out.
func pathString(p cmp.Path) string {
	var b strings.Builder
	for _, s := range p {
		switch s := s.(type) {
		case cmp.StructField:
			b.WriteString("." + s.Name())
		case cmp.SliceIndex:
			b.WriteString(s.String())
		case cmp.MapIndex:
			b.WriteString(s.String())
		}
	}
	return b.String()
}
