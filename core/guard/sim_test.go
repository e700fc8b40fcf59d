package guard_test

import (
	"fmt"
	"slices"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/guard"
	"github.com/galaxy-stack/conform/core/port"
)

// A step is one scripted tool call and the result its executor returns.
type step struct {
	name, canonical string
	args            map[string]any
	result          port.ToolResult
	writeCapable    bool
	failureState    string
}

func hashOf(v any) string {
	h, err := canon.Hash(v)
	if err != nil {
		panic(err)
	}
	return h
}

func hostOK(canonical string, fx *port.Effects) port.ToolResult {
	return port.ToolResult{OK: true, CanonicalToolID: canonical, Content: "{}", Summary: canonical + " ok", Trust: "workspace", Effects: fx, EffectsAuthority: "host"}
}

// read is a workspace.read of path that reports the path inspected.
func read(path string) step {
	return step{name: "read_file", canonical: "workspace.read", args: map[string]any{"path": path},
		result: hostOK("workspace.read", &port.Effects{Approval: "not_required", InspectedPaths: []string{path}})}
}

// probe is a successful read-only call without effects.
func probe(name string) step {
	return step{name: name, canonical: "test." + name, args: map[string]any{"path": "."},
		result: port.ToolResult{OK: true, CanonicalToolID: "test." + name, Content: "{}", Summary: name + " observed the same state", Trust: "trusted"}}
}

func strp(s string) *string { return &s }

// write changes src/a.ts from before to after.
func write(before, after string) step {
	return writeAt("src/a.ts", before, after)
}

func writeAt(path, before, after string) step {
	w := port.Write{Path: path, BeforeHash: strp(before), AfterHash: strp(after)}
	return step{name: "workspace_write", canonical: "workspace.write", args: map[string]any{"path": path}, writeCapable: true,
		result: hostOK("workspace.write", &port.Effects{Writes: []port.Write{w}})}
}

// failWrite is a structured failure of a write-capable tool.
func failWrite(args map[string]any) step {
	return step{name: "workspace_write", canonical: "workspace.write", args: args, writeCapable: true,
		result: port.ToolResult{OK: false, CanonicalToolID: "workspace.write", Content: "{}", Summary: "stale edit rejected", Trust: "trusted",
			Error: &port.ToolError{Code: "CONFLICT", Message: "expected hash is stale"}}}
}

// validate reports one workspace validation with id and status.
func validate(id, status string, args map[string]any) step {
	return step{name: "project_validate", canonical: "project.validate", args: args,
		result: hostOK("project.validate", &port.Effects{Validations: []port.ValidationEntry{{ID: id, Detail: id + " " + status, Scope: "workspace", Status: status}}})}
}

// mark satisfies a criterion.
func mark(id string, args map[string]any) step {
	return step{name: "criterion_mark", canonical: "test.criterion_mark", args: args,
		result: hostOK("test.criterion_mark", &port.Effects{AcceptanceCriteriaSatisfied: []string{id}})}
}

// review reports a diff review.
func review(args map[string]any) step {
	return step{name: "git_diff", canonical: "git.diff", args: args,
		result: hostOK("git.diff", &port.Effects{DiffReview: &port.DiffReview{DiffHash: "sha256:diff"}})}
}

// sim drives a Guard as the controller does, with a minimal evidence model.
type sim struct {
	g         *guard.Guard
	turn      int
	toolCalls int
	seq       int
	fp        string
	ev        guard.Evidence
	last      *checkpoint.ToolCallRecord

	dispatched []string
	blocked    []string
	feedback   []string
	policy     []guard.PolicyDecision
	verdicts   []guard.BatchAction
}

func newSim(cfg guard.Config) *sim {
	g, err := guard.New(cfg)
	if err != nil {
		panic(err)
	}
	return &sim{g: g, fp: "sha256:workspace", ev: guard.Evidence{Plan: checkpoint.Plan{Completed: []string{}, Pending: []string{}}}}
}

func cfgWith(mut func(*guard.Config)) guard.Config {
	c := guard.DefaultConfig("run-test")
	if mut != nil {
		mut(&c)
	}
	return c
}

// round runs one model turn with the given calls and the post-batch check;
// it returns the batch verdict.
func (s *sim) round(steps ...step) guard.Verdict {
	s.turn++
	var obs []guard.Observation
	for _, st := range steps {
		s.toolCalls++
		s.seq++
		c := guard.Call{Turn: s.turn, ToolCallID: fmt.Sprintf("call-%d", s.seq), Name: st.name, CanonicalID: st.canonical,
			ArgumentsHash: hashOf(st.args), Arguments: st.args}
		s.last = &checkpoint.ToolCallRecord{ArgumentsHash: c.ArgumentsHash, Name: c.Name, ToolCallID: c.ToolCallID}
		d := s.g.BeforeDispatch(c)
		s.feedback = append(s.feedback, d.Feedback...)
		s.policy = append(s.policy, d.Policy...)
		if d.Block != nil {
			s.blocked = append(s.blocked, c.ToolCallID)
			res := d.Block.Result(c)
			obs = append(obs, guard.Observation{Name: c.Name, Summary: res.Summary, Failed: true})
			continue
		}
		s.dispatched = append(s.dispatched, c.ToolCallID)
		r := st.result
		gr := guard.Result{OK: r.OK, WriteCapable: st.writeCapable, FailureState: st.failureState, Fingerprint: s.fp}
		if r.EffectsAuthority == "host" {
			gr.HostEffects = r.Effects
		}
		if r.OK && gr.HostEffects != nil {
			s.apply(c, gr.HostEffects)
			gr.Writes = gr.HostEffects.Writes
		}
		rep := s.g.AfterResult(c, gr, s.evidence())
		s.feedback = append(s.feedback, rep.Feedback...)
		obs = append(obs, guard.Observation{Name: c.Name, Summary: r.Summary, Failed: !r.OK})
	}
	v := s.g.AfterBatch(obs)
	s.verdicts = append(s.verdicts, v.Action)
	if v.Action == guard.Recover {
		s.feedback = append(s.feedback, v.Feedback)
		s.policy = append(s.policy, *v.Policy)
	}
	return v
}

// runUntilPause runs one call per turn until the guard pauses the run or
// the steps are used up; it reports whether it paused.
func (s *sim) runUntilPause(steps ...step) bool {
	for _, st := range steps {
		if s.round(st).Action == guard.Pause {
			return true
		}
	}
	return false
}

func (s *sim) evidence() guard.Evidence {
	ev := s.ev
	ev.InspectedPaths = slices.Clone(ev.InspectedPaths)
	return ev
}

// apply is the evidence part of RUNTIME §16.3 that the state version reads.
func (s *sim) apply(c guard.Call, fx *port.Effects) {
	seq := int64(s.toolCalls)
	for _, p := range fx.InspectedPaths {
		if !slices.Contains(s.ev.InspectedPaths, p) {
			s.ev.InspectedPaths = append(s.ev.InspectedPaths, p)
		}
	}
	for _, w := range fx.Writes {
		s.ev.Writes = append(s.ev.Writes, checkpoint.Edit{AfterHash: w.AfterHash, BeforeHash: w.BeforeHash, Path: w.Path,
			Sequence: seq, ToolCallID: c.ToolCallID, WorkspaceFingerprint: s.fp})
	}
	for _, v := range fx.Validations {
		rec := checkpoint.ValidationRecord{Detail: v.Detail, ID: v.ID, Scope: checkpoint.ValidationScope(v.Scope), Sequence: seq,
			Status: checkpoint.ValidationStatus(v.Status), WorkspaceFingerprint: s.fp}
		i := slices.IndexFunc(s.ev.Validations, func(p checkpoint.ValidationRecord) bool {
			return p.ID == rec.ID && p.Status == rec.Status && p.WorkspaceFingerprint == rec.WorkspaceFingerprint
		})
		if i >= 0 {
			s.ev.Validations = slices.Clone(s.ev.Validations)
			s.ev.Validations[i] = rec
		} else {
			s.ev.Validations = append(s.ev.Validations, rec)
		}
	}
	if fx.DiffReview != nil {
		s.ev.DiffReview = &checkpoint.DiffReview{DiffHash: fx.DiffReview.DiffHash, Sequence: seq, WorkspaceFingerprint: s.fp}
	}
	for _, id := range fx.AcceptanceCriteriaSatisfied {
		s.ev.Criteria = slices.Clone(s.ev.Criteria)
		for i, cr := range s.ev.Criteria {
			if cr.ID == id && cr.Status != checkpoint.CriterionSatisfied {
				s.ev.Criteria[i].Status = checkpoint.CriterionSatisfied
				s.ev.Criteria[i].EvidenceIDs = append(slices.Clone(cr.EvidenceIDs), c.ToolCallID)
			}
		}
	}
}

// actions returns "action@attempt" for each traced policy decision.
func (s *sim) actions() []string {
	var out []string
	for _, p := range s.policy {
		if p.Attempt > 0 {
			out = append(out, fmt.Sprintf("%s@%d", p.Action, p.Attempt))
		} else {
			out = append(out, p.Action)
		}
	}
	return out
}
