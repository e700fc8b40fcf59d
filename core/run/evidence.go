package run

import (
	"slices"

	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/clone"
)

// DefaultNextAction is the initial next action of a run (RUNTIME §16.8).
const DefaultNextAction = "Inspect the workspace and choose the smallest evidence-backed action."

// evidence is the run's mutable evidence (AiCoderMutableRunEvidence,
// RUNTIME §16.8). Pending approvals live in the session under its lock.
type evidence struct {
	criteria      []checkpoint.Criterion
	approvals     []string
	decisions     []string
	diffReview    *checkpoint.DiffReview
	inspected     map[string]bool
	lastToolCalls []checkpoint.ToolCallRecord
	nextAction    string
	openProblems  []string
	plan          checkpoint.Plan
	research      []checkpoint.ResearchSource
	seen          map[string]bool
	validations   []checkpoint.ValidationRecord
	writes        []checkpoint.Edit
}

func newEvidence(req Request) evidence {
	return evidence{
		criteria: req.criteria(), approvals: []string{}, decisions: []string{},
		inspected: map[string]bool{}, lastToolCalls: []checkpoint.ToolCallRecord{},
		nextAction: DefaultNextAction, openProblems: []string{},
		plan:     checkpoint.Plan{Completed: []string{}, Pending: []string{}},
		research: []checkpoint.ResearchSource{}, seen: map[string]bool{},
		validations: []checkpoint.ValidationRecord{}, writes: []checkpoint.Edit{},
	}
}

func (e *evidence) addOpenProblem(p string) {
	if !slices.Contains(e.openProblems, p) {
		e.openProblems = append(e.openProblems, p)
	}
}

func (e *evidence) removeOpenProblem(p string) {
	e.openProblems = slices.DeleteFunc(e.openProblems, func(x string) bool { return x == p })
}

// recordOutcome sets the outcome of the lastToolCalls entry of id.
func (e *evidence) recordOutcome(id string, o checkpoint.ToolOutcome) {
	for i := len(e.lastToolCalls) - 1; i >= 0; i-- {
		if e.lastToolCalls[i].ToolCallID == id {
			e.lastToolCalls[i].Outcome = o
			return
		}
	}
}

func (e *evidence) pushToolCall(r checkpoint.ToolCallRecord) {
	e.lastToolCalls = append(e.lastToolCalls, r)
	if len(e.lastToolCalls) > 12 {
		e.lastToolCalls = e.lastToolCalls[len(e.lastToolCalls)-12:]
	}
}

func (e *evidence) inspectedPaths() []string { return sortedKeys(e.inspected) }

func cloneValidations(v []checkpoint.ValidationRecord) []checkpoint.ValidationRecord {
	out := make([]checkpoint.ValidationRecord, len(v))
	for i, r := range v {
		r.Paths = slices.Clone(r.Paths)
		out[i] = r
	}
	return out
}

func cloneEdits(w []checkpoint.Edit) []checkpoint.Edit {
	out := make([]checkpoint.Edit, len(w))
	for i, e := range w {
		e.AfterHash, e.BeforeHash = clone.Ptr(e.AfterHash), clone.Ptr(e.BeforeHash)
		out[i] = e
	}
	return out
}

func ptr[T any](v T) *T { return &v }
