package replay

import (
	"fmt"

	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/doubles/model"
	"github.com/galaxy-stack/conform/hosts/proxy"
	"github.com/galaxy-stack/conform/matrix/lab"
	"github.com/galaxy-stack/conform/matrix/snapshot"
)

// Build returns the normalized transcript of rep. A report without an
// observed record (a host that failed to start, a run not applicable)
// gives a transcript of its status alone.
func Build(rep *lab.Report) *Transcript {
	t := &Transcript{Version: Version, Fixture: rep.Fixture, RunID: rep.RunID, Events: []Event{}}
	var initial snapshot.Snapshot
	if rep.Observed != nil {
		initial = rep.Observed.Initial
	}
	c := newContents(initial)
	requests := 0
	emitRequests := func(upTo int) {
		for ; requests < upTo && requests < len(rep.ModelRequests); requests++ {
			t.Events = append(t.Events, Event{Kind: "model_request", Request: request(rep.ModelRequests[requests])})
		}
	}
	for _, e := range rep.Transcript {
		emitRequests(e.ModelRequests)
		if e.Event == nil {
			continue
		}
		t.Events = append(t.Events, event(*e.Event, c))
	}
	emitRequests(len(rep.ModelRequests))
	t.Final = final(rep)
	return t
}

func request(r model.RequestRecord) *Request {
	return &Request{Outcome: r.Outcome, Round: r.Round, Messages: r.Messages, ToolNames: nonNil(r.ToolNames),
		ToolFree: r.ToolFree, Think: r.Think, ContainsTask: r.ContainsTask, CheckpointsSeen: len(r.CheckpointHashes)}
}

func event(ev run.Event, c *contents) Event {
	e := Event{Kind: ev.Type, Execution: ev.ExecutionID, Turn: ev.ModelTurn}
	switch ev.Type {
	case run.EventModel:
		if m := ev.Model; m != nil {
			me := &ModelEvent{Type: m.Type, Delta: m.Delta, Content: m.Content, Thinking: m.Thinking, StopReason: m.StopReason}
			if m.Call != nil {
				me.Call = call(*m.Call)
			}
			if m.Error != nil {
				me.ErrorCode = m.Error.Code
			}
			e.Model = me
		}
	case run.EventToolStart:
		if ev.Call != nil {
			e.Call = call(*ev.Call)
			c.started(ev.Call)
		}
	case run.EventToolResult:
		r := &Result{}
		if ev.Call != nil {
			r.Name, r.ID = ev.Call.Name, ev.Call.ToolCallID
		}
		if res := ev.Result; res != nil {
			r.CanonicalToolID, r.OK, r.Trust, r.EffectsAuthority = res.CanonicalToolID, res.OK, res.Trust, res.EffectsAuthority
			if res.Error != nil {
				r.ErrorCode = res.Error.Code
			}
			r.Effects = effectsOf(res.Effects)
			c.result(r, res.Effects)
		}
		e.Result = r
	case run.EventCheckpoint:
		if ev.Checkpoint != nil {
			a := lab.AuditOf(ev.Checkpoint)
			e.Checkpoint = &a
		} else {
			e.Reason = ev.Reason
		}
	case run.EventPlan:
		e.Plan = ev.Plan
	case run.EventCompletionRejected:
		e.Issues = nonNil(ev.Issues)
	case run.EventContextPressure:
		e.Pressure = ev.Pressure
	case run.EventModelRetry:
		e.Attempt, e.DelayMs = ev.Attempt, ev.DelayMs
	case run.EventCompaction:
		e.Reason = ev.Reason
	case run.EventTokenLedger:
		if l := ev.Ledger; l != nil {
			e.Ledger = &LedgerEvent{Turn: l.Turn, OutputTokens: l.OutputTokens}
		}
	case run.EventState:
		if ev.Transition != nil {
			e.Transition = ev.Transition.From + "->" + ev.Transition.To
		}
	}
	return e
}

func call(c port.ToolCall) *Call {
	args := c.Arguments
	if args == nil {
		args = map[string]any{}
	}
	return &Call{Name: c.Name, ID: c.ToolCallID, Arguments: args}
}

func effectsOf(fx *port.Effects) *Effects {
	if fx == nil {
		return nil
	}
	out := &Effects{Approval: fx.Approval, Satisfied: fx.AcceptanceCriteriaSatisfied, Waived: fx.AcceptanceCriteriaWaived,
		DiffReviewed: fx.DiffReview != nil, Inspected: fx.InspectedPaths, NextAction: fx.NextAction, Plan: fx.Plan,
	}
	for _, v := range fx.Validations {
		out.Validations = append(out.Validations, Validation{ID: v.ID, Scope: v.Scope, Paths: v.Paths, Status: v.Status})
	}
	for _, s := range fx.ResearchSources {
		out.Research = append(out.Research, Source{Kind: s.Kind, URL: s.URL, Truncated: s.Truncated, ContentHash: s.ContentHash})
	}
	for _, w := range fx.Writes {
		out.Writes = append(out.Writes, write(w))
	}
	return out
}

// write normalizes one write: the hash of a side that is not a regular
// file (a symlink, a special entry) is the host's own and is left out.
func write(w port.Write) Write {
	out := Write{Path: w.Path, BeforeKind: w.BeforeKind, AfterKind: w.AfterKind, BeforeHash: w.BeforeHash, AfterHash: w.AfterHash}
	if opaque(w.BeforeKind) {
		out.BeforeHash = nil
	}
	if opaque(w.AfterKind) {
		out.AfterHash = nil
	}
	return out
}

func opaque(kind string) bool {
	return kind == effects.KindSymlink || kind == effects.KindOther
}

func final(rep *lab.Report) Final {
	f := Final{Status: rep.Status, ErrorCode: rep.ErrorCode, NotApplicable: rep.NotApplicable != "",
		ExecutionStatuses: []string{}, Writes: []Write{}, Checkpoints: []lab.Audit{}, Approvals: []Approval{},
		Faults: []string{}, Workspace: []SnapshotEntry{}}
	for _, a := range rep.CheckpointAudits {
		f.Checkpoints = append(f.Checkpoints, a.Audit)
	}
	if c := rep.ModelContext; c != nil {
		f.ContextAudit = ContextAudit{AllRequestsContainTask: c.AllRequestsContainTask, ObservedCheckpointCount: len(c.ObservedCheckpointHashes)}
	}
	for _, a := range rep.Approvals {
		f.Approvals = append(f.Approvals, Approval{CanonicalToolID: a.CanonicalToolID, ModelName: a.ModelName, Approved: a.Approved})
	}
	for _, x := range rep.Faults {
		f.Faults = append(f.Faults, faultName(x))
	}
	obs := rep.Observed
	if obs == nil {
		return f
	}
	f.ExecutionStatuses = nonNil(obs.ExecutionStatuses)
	for _, w := range obs.Writes {
		f.Writes = append(f.Writes, write(w))
	}
	for _, e := range obs.Final {
		s := SnapshotEntry{Path: e.Path, Kind: e.Kind, Hash: e.Hash}
		if e.Kind != effects.KindFile {
			s.Hash = ""
		}
		f.Workspace = append(f.Workspace, s)
	}
	return f
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return append([]string{}, s...)
}

func faultName(f proxy.Fault) string {
	s := fmt.Sprintf("%d %s %s", f.Rule, f.Action, f.Method)
	if f.ModelName != "" {
		s += " " + f.ModelName
	}
	return s
}
