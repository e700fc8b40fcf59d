// Package resume checks that a scenario resumes from every step:
// `conform run --resume-everywhere` as a library.
//
// It runs the scenario once uninterrupted, then once per step — after each
// model round (the model's "done" event) and after each tool result — with
// a pause at that step and a resume in a fresh host process on the same
// store (runtime.resume with recreateHost). Each resumed run must end as
// the uninterrupted one did: the same final status and error code, the
// same tool calls and results, the same write evidence and final
// workspace (its outcome hash, the hash of that part of the normalized
// transcript: the pause adds a checkpoint and a second execution, which
// the replay hash covers), and no tool call sent to the host twice (the
// harness counts the tool/execute requests it sends, by callId). A step at
// which the run did not pause (it ended first) is reported as such.
//
// A pause during a model round is not resumable to the same outcome, by
// the runtime's rule: the pause aborts the operations in flight, the
// round's answer among them, and the resumed run asks the model again
// (RUNTIME §22.2: "stores the intent and aborts the run signal with
// PAUSED ... In-flight operations see the abort"); the scripted model has
// served that round already, so the run goes on with the next one. Those
// steps are reported with [NotResumable] without running, never as
// failures.
package resume

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/google/go-cmp/cmp"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/doubles/model"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/galaxy-stack/conform/matrix/lab"
	"github.com/galaxy-stack/conform/matrix/replay"
	"github.com/galaxy-stack/conform/matrix/runs"
)

// Config says which scenario to check against which host.
type Config struct {
	// Path is the scenario: one JSON fixture or txtar scenario (whose
	// script is not run: its fixture is).
	Path string
	// Argv starts the host; HostEnv and AllowUncontained are as for
	// runs.Config.
	Argv             []string
	HostEnv          []string
	AllowUncontained bool
}

// A Step is one pause point and what resuming from it gave.
type Step struct {
	// Event is "model" (after a model round) or "tool_result";
	// Occurrence the control's occurrence of that event.
	Event      string `json:"event"`
	Occurrence int    `json:"occurrence"`
	// Paused is false when the run ended before the pause fired.
	Paused bool `json:"paused"`
	// NotResumable, when set, is why the contract does not make this step
	// resume to the same outcome.
	NotResumable string `json:"notResumable,omitempty"`
	// Status and ErrorCode are the resumed run's final ones.
	Status    string  `json:"status"`
	ErrorCode *string `json:"errorCode"`
	// OutcomeHash is the hash of the resumed run's outcome.
	OutcomeHash string `json:"outcomeHash"`
	// Passed is true when the outcome equals the uninterrupted run's and
	// no call ran twice.
	Passed bool `json:"passed"`
	// RanTwice names the calls sent to the host more than once.
	RanTwice []string `json:"ranTwice,omitempty"`
	// Diff is go-cmp's diff of the outcomes (- uninterrupted, + resumed).
	Diff string `json:"diff,omitempty"`
}

// Result is a scenario's check.
type Result struct {
	File string `json:"file"`
	// Status, ErrorCode and OutcomeHash are the uninterrupted run's.
	Status      string  `json:"status"`
	ErrorCode   *string `json:"errorCode"`
	OutcomeHash string  `json:"outcomeHash"`
	Steps       []Step  `json:"steps"`
	// Passed counts the steps that resumed to the same outcome, Failed
	// those that did not, NotPaused those where the run ended first,
	// NotResumable those the contract does not make resumable.
	Passed       int `json:"passed"`
	Failed       int `json:"failed"`
	NotPaused    int `json:"notPaused"`
	NotResumable int `json:"notResumable"`
}

// An outcome is the part of a run that a pause and a resume must not
// change.
type outcome struct {
	Status    string                 `json:"status"`
	ErrorCode *string                `json:"errorCode"`
	Calls     []replay.Call          `json:"calls"`
	Results   []replay.Result        `json:"results"`
	Writes    []replay.Write         `json:"writes"`
	Workspace []replay.SnapshotEntry `json:"workspace"`
}

func outcomeOf(t *replay.Transcript) outcome {
	o := outcome{Status: t.Final.Status, ErrorCode: t.Final.ErrorCode, Writes: t.Final.Writes, Workspace: t.Final.Workspace}
	for _, e := range t.Events {
		if e.Call != nil && e.Kind == "tool_start" {
			o.Calls = append(o.Calls, *e.Call)
		}
		if e.Result != nil {
			o.Results = append(o.Results, *e.Result)
		}
	}
	return o
}

// ModelRoundRule is why a pause during a model round does not resume to
// the same outcome.
const ModelRoundRule = "a pause aborts the model round in flight and the resumed run asks the model again (RUNTIME §22.2: a pause intent aborts the run signal and \"in-flight operations see the abort\"); the scripted model has served that round already"

// Run checks cfg.Path. A scenario that already declares controls or a
// resume policy is refused: its own pauses would mix with the check's.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	rs, err := runs.Load(cfg.Path)
	if err != nil {
		return nil, err
	}
	if len(rs) != 1 {
		return nil, &lab.InvocationError{Err: fmt.Errorf("resume-everywhere: %s holds %d fixtures; name one", cfg.Path, len(rs))}
	}
	r := rs[0]
	fx := r.Fixture
	if len(fx.Controls) > 0 || fx.Runtime != nil && fx.Runtime.Resume != nil {
		return nil, &lab.InvocationError{Err: fmt.Errorf("resume-everywhere: %s declares its own controls or resume policy; name a scenario that runs straight through", cfg.Path)}
	}
	opts := lab.Options{Argv: cfg.Argv, HostEnv: cfg.HostEnv, Commands: lab.ContainCommands}
	switch {
	case r.Trusted:
		opts.Commands = lab.TrustCommands
	case cfg.AllowUncontained:
		opts.Commands = lab.AllowUncontainedCommands
	}
	rep, err := lab.Run(ctx, fx, opts, false)
	if err != nil {
		return nil, err
	}
	base := replay.Build(rep)
	want := outcomeOf(base)
	res := &Result{File: fx.File, Status: rep.Status, ErrorCode: rep.ErrorCode, Steps: []Step{}}
	if res.OutcomeHash, err = canon.Hash(want); err != nil {
		return nil, err
	}
	for _, st := range steps(base) {
		if ctx.Err() != nil {
			return res, context.Cause(ctx)
		}
		s := st
		if s.NotResumable == "" {
			if s, err = resumeAt(ctx, fx, opts, st, want); err != nil {
				return nil, err
			}
		}
		switch {
		case s.NotResumable != "":
			res.NotResumable++
		case !s.Paused:
			res.NotPaused++
		case s.Passed:
			res.Passed++
		default:
			res.Failed++
		}
		res.Steps = append(res.Steps, s)
	}
	return res, nil
}

// steps are the pause points of the uninterrupted run t: the model event
// that ends each round ("done"), by its occurrence among model events, and
// each tool result.
func steps(t *replay.Transcript) []Step {
	var out []Step
	models, results := 0, 0
	for _, e := range t.Events {
		switch {
		case e.Kind == model.OnModel && e.Model != nil:
			models++
			if e.Model.Type == "done" {
				out = append(out, Step{Event: model.OnModel, Occurrence: models, NotResumable: ModelRoundRule})
			}
		case e.Kind == model.OnToolResult:
			results++
			out = append(out, Step{Event: model.OnToolResult, Occurrence: results})
		}
	}
	return out
}

// resumeAt runs fx paused at st and resumed in a fresh host process.
func resumeAt(ctx context.Context, fx *fixture.Fixture, opts lab.Options, st Step, want outcome) (Step, error) {
	f := *fx
	rt := fixture.Runtime{}
	if fx.Runtime != nil {
		rt = *fx.Runtime
	}
	rt.Resume = &fixture.Resume{On: "paused", MaxExecutions: 2, RecreateHost: true}
	f.Runtime = &rt
	f.Controls = []model.Control{{Action: model.ActionPause, Event: st.Event, Occurrence: st.Occurrence}}
	rep, err := lab.Run(ctx, &f, opts, false)
	if err != nil {
		return st, err
	}
	t := replay.Build(rep)
	st.Status, st.ErrorCode = rep.Status, rep.ErrorCode
	st.Paused = rep.Observed != nil && len(rep.Observed.ExecutionStatuses) > 1
	got := outcomeOf(t)
	if st.OutcomeHash, err = canon.Hash(got); err != nil {
		return st, err
	}
	st.RanTwice = ranTwice(rep)
	st.Diff = cmp.Diff(want, got)
	st.Passed = st.Diff == "" && len(st.RanTwice) == 0 && st.Paused
	return st, nil
}

// ranTwice returns the callIds of the tool/execute requests the harness
// sent more than once, over every host process of the run.
func ranTwice(rep *lab.Report) []string {
	count := map[string]int{}
	for _, m := range rep.Wire {
		if !m.Sent {
			continue
		}
		var msg struct {
			Method string `json:"method"`
			Params struct {
				CallID string `json:"callId"`
			} `json:"params"`
		}
		if json.Unmarshal(m.Line, &msg) == nil && msg.Method == wire.MethodExecute {
			count[msg.Params.CallID]++
		}
	}
	var out []string
	for id, n := range count {
		if n > 1 {
			out = append(out, fmt.Sprintf("%s (%d times)", id, n))
		}
	}
	sort.Strings(out)
	return out
}
