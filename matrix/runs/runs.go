// Package runs is `conform run` as a library: it loads fixtures of the
// original lab's JSON format, txtar scenarios and campaigns, runs them
// against one host (package lab, package scenariofile), decides which of
// them are conform's own and may run their commands whatever containment
// the host reports, and returns the result document of kind "run" with
// the reports and transcripts behind it.
//
//	argv, _ := builtin.Command("reference")
//	res, err := runs.Run(ctx, runs.Config{Host: "reference", Argv: argv, Paths: []string{"fixtures/scenarios"}})
//	// err: the run could not happen; res.Document: one item per fixture
//
// What to print is the caller's: Run prints nothing.
package runs

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/galaxy-stack/conform/matrix"
	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/galaxy-stack/conform/matrix/lab"
	"github.com/galaxy-stack/conform/matrix/oracle"
	"github.com/galaxy-stack/conform/matrix/replay"
	"github.com/galaxy-stack/conform/reports"
)

// Config says what to run and against which host.
type Config struct {
	// Host is the --host value, Mutant the reference host's named fault
	// and CoreFault the core's, as given: they name the host in the
	// result document and in the repro commands. The caller checks them
	// and switches the core fault on.
	Host, Mutant, CoreFault string
	// Argv is the command line that starts the host (with --mutant).
	Argv []string
	// HostEnv names environment variables passed to the host in addition
	// to the harness's allowlist.
	HostEnv []string
	// Paths are the fixtures, scenarios and directories to run, in order;
	// Campaign is instead a campaign's directory. One of them is set.
	Paths    []string
	Campaign string
	// Task replaces the task of the one fixture run.
	Task string
	// ForbidContainment asks the host to behave as if no containment
	// backend existed.
	ForbidContainment bool
	// AllowUncontained lets the commands of scenarios from outside conform
	// reach a host without verified containment (--allow-uncontained-commands).
	AllowUncontained bool
	// Keep keeps the workspaces.
	Keep bool
	// Grace is how long, once ctx ends with an Interruption, the fixture
	// running may take to wind down before Run reports without it; zero
	// waits for it.
	Grace time.Duration
	// Finished, when set, is called with each fixture's report as it
	// finishes (not for campaign stages).
	Finished func(*lab.Report)
	// ReproDir, when set, is where a fixture that fails gets its repro: a
	// self-contained txtar scenario (ReproArchive), whose run command
	// becomes the item's repro in the result document.
	ReproDir string
}

// Result is what a run found.
type Result struct {
	// Document is the result document of kind "run", redacted.
	Document *reports.Document
	// Fixtures is the outcome of a run over fixtures; Campaign that of a
	// campaign. One of them is set.
	Fixtures *FixturesResult
	Campaign *CampaignResult
	// Transcripts are the normalized transcripts of the fixtures that
	// ran, in run order.
	Transcripts []*replay.Transcript
	// Repros are the repro files written, in run order; ReproErrors the
	// repros that could not be written.
	Repros      []string
	ReproErrors []error
	// Stopped is ctx's cause when a signal (a matrix.Interruption) stopped
	// the run; TimedOut is ctx's cause when it ended otherwise.
	Stopped, TimedOut error
	// Cut is the campaign stage that was running when ctx ended.
	Cut string
}

// FixtureRef names a fixture in the output of an interrupted run.
type FixtureRef struct {
	Fixture string `json:"fixture"`
	File    string `json:"file"`
}

// FixturesResult is the outcome of a run over fixtures, as `conform run
// --json` prints it.
type FixturesResult struct {
	Passed int `json:"passed"`
	Failed int `json:"failed"`
	// NotApplicable counts the fixtures the host cannot serve at all.
	NotApplicable int `json:"notApplicable,omitempty"`
	// Interrupted is true when a signal stopped the run; InterruptedFixture
	// is the fixture that was running then (not in Reports), and NotRun
	// counts the fixtures never started.
	Interrupted        bool          `json:"interrupted,omitempty"`
	InterruptedFixture *FixtureRef   `json:"interruptedFixture,omitempty"`
	NotRun             int           `json:"notRun,omitempty"`
	Reports            []*lab.Report `json:"reports"`
}

// CampaignResult is the outcome of a campaign, as `conform run --campaign
// --json` prints it: the campaign's report, marked when a signal stopped
// it.
type CampaignResult struct {
	*lab.CampaignReport
	// Interrupted is true when a signal stopped the campaign;
	// InterruptedStage names the stage that was running then (not in
	// Stages).
	Interrupted      bool   `json:"interrupted,omitempty"`
	InterruptedStage string `json:"interruptedStage,omitempty"`
}

// Run runs cfg's fixtures (or campaign) against the host, each isolated
// (a campaign's stages on one shared workspace), and returns what they
// found. ctx bounds the run: when it ends, the fixture running is cut
// short and no other starts; with a matrix.Interruption for its cause the
// fixture is reported as interrupted, otherwise as failed on the bound.
//
// A fixture that cannot be loaded is a *fixture.Error; a selection that
// cannot run as asked, or a fixture the core refuses, a
// *lab.InvocationError.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	opts := lab.Options{Argv: cfg.Argv, Task: cfg.Task, ForbidContainment: cfg.ForbidContainment, HostEnv: cfg.HostEnv}
	commandTrust(&opts, cfg.AllowUncontained, cfg.Mutant)
	rd := newRunDoc(cfg.Host, cfg.Mutant, cfg.CoreFault, cfg.Argv)
	if cfg.Campaign != "" {
		if len(cfg.Paths) > 0 {
			return nil, invocationf("run: --campaign takes no fixture arguments, got %q", cfg.Paths)
		}
		if cfg.Task != "" {
			return nil, invocationf("run: --task applies to a single fixture, not to a campaign")
		}
		return runCampaign(ctx, cfg, opts, rd)
	}
	if len(cfg.Paths) == 0 {
		return nil, invocationf("run: no fixture given")
	}
	return runFixtures(ctx, cfg, opts, rd)
}

func invocationf(format string, args ...any) error {
	return &lab.InvocationError{Err: fmt.Errorf(format, args...)}
}

// commandTrust sets how the run treats the process-spawning calls of
// scenarios from outside conform (Runnable.Run trusts conform's own):
// refused without verified containment, or run uncontained. With a mutant
// of the reference host, its report of verified containment is not
// evidence, nor is its promise to run git with hooks and filters off:
// mutants exist to break promises, those included.
func commandTrust(opts *lab.Options, uncontained bool, mutant string) {
	opts.Commands = lab.ContainCommands
	if uncontained {
		opts.Commands = lab.AllowUncontainedCommands
	}
	if mutant != "" {
		opts.DistrustContainment = "--mutant " + mutant + ": a mutant of the reference host may break its promises about what it runs"
	}
}

// ended returns why ctx ended: the signal (a matrix.Interruption), or the
// bound; both nil while it runs.
func ended(ctx context.Context) (stopped, timedOut error) {
	if ctx.Err() == nil {
		return nil, nil
	}
	cause := context.Cause(ctx)
	var in matrix.Interruption
	if errors.As(cause, &in) {
		return cause, nil
	}
	return nil, cause
}

// Await runs f and returns when f has returned or, once ctx ended with a
// matrix.Interruption (a signal), when f has not returned within grace
// (zero: waits); ended otherwise (a timeout), it waits for f.
func Await(ctx context.Context, grace time.Duration, f func()) {
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		f()
	}()
	select {
	case <-finished:
		return
	case <-ctx.Done():
	}
	if stopped, _ := ended(ctx); stopped == nil || grace <= 0 {
		<-finished
		return
	}
	select {
	case <-finished:
	case <-time.After(grace):
	}
}

func runFixtures(ctx context.Context, cfg Config, opts lab.Options, rd *runDoc) (*Result, error) {
	var all []Runnable
	for _, p := range cfg.Paths {
		rs, err := Load(p)
		if err != nil {
			return nil, err
		}
		all = append(all, rs...)
	}
	if opts.Task != "" && len(all) != 1 {
		return nil, invocationf("run: --task applies to exactly one fixture, got %d", len(all))
	}
	out := &Result{Fixtures: &FixturesResult{Reports: []*lab.Report{}}}
	res := out.Fixtures
	started := 0
	for _, r := range all {
		fx := r.Fixture
		if ctx.Err() != nil {
			break // interrupted or out of time: start nothing new
		}
		started++
		var rep *lab.Report
		var tr *replay.Transcript
		var err error
		t0 := time.Now()
		Await(ctx, cfg.Grace, func() { rep, tr, err = r.Run(ctx, opts, cfg.Keep) })
		stopped, timedOut := ended(ctx)
		if stopped != nil {
			// Whatever the fixture returned, the signal ended it.
			res.InterruptedFixture = &FixtureRef{Fixture: fx.Name, File: fx.File}
			rd.skip(fx, matrix.InterruptedReason)
			break
		}
		if timedOut != nil {
			rep = timedOutReport(fx, rep, timedOut)
			err = nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", fx.File, err)
		}
		res.Reports = append(res.Reports, rep)
		rd.add(fx.Name, rep, time.Since(t0))
		if cfg.ReproDir != "" && !rep.Passed && rep.NotApplicable == "" {
			reproduce(cfg, r, rep, rd, out)
		}
		if tr != nil {
			out.Transcripts = append(out.Transcripts, tr)
		}
		switch {
		case rep.NotApplicable != "":
			res.NotApplicable++
		case rep.Passed:
			res.Passed++
		default:
			res.Failed++
		}
		if cfg.Finished != nil {
			cfg.Finished(rep)
		}
	}
	res.NotRun = len(all) - started
	out.Stopped, out.TimedOut = ended(ctx)
	res.Interrupted = out.Stopped != nil
	for _, r := range all[started:] {
		rd.skip(r.Fixture, reports.NotRunReason)
	}
	out.Document = rd.document(res.Interrupted)
	return out, nil
}

// reproduce writes the repro of the failed fixture r and makes its run
// command the repro of the item rd added last.
func reproduce(cfg Config, r Runnable, rep *lab.Report, rd *runDoc, out *Result) {
	var cmd string
	file, err := writeRepro(cfg.ReproDir, r, rep, func(file string) string {
		cmd = rd.repro(file)
		// conform's own scenarios and allowed runs sent their commands
		// to the host uncontained; the repro is a stranger's file.
		if r.Trusted || len(rep.Allowances) > 0 {
			cmd += " " + lab.AllowUncontainedFlag
		}
		return cmd
	})
	if err != nil {
		out.ReproErrors = append(out.ReproErrors, fmt.Errorf("%s: repro: %w", r.Fixture.File, err))
		return
	}
	out.Repros = append(out.Repros, file)
	rd.items[len(rd.items)-1].Repro = cmd
}

// timedOutReport fails the report of fx, the fixture running when the
// run's bound ended it, with a failure naming the bound.
func timedOutReport(fx *fixture.Fixture, rep *lab.Report, cause error) *lab.Report {
	if rep == nil {
		rep = &lab.Report{Fixture: fx.Name, File: fx.File, RunID: fx.RunID(), Status: "timed_out"}
	}
	// What the oracle saw of a run cut short says nothing about the host:
	// the bound is the one failure.
	rep.Failures = []oracle.Failure{{File: fx.File, Assertion: "timeout",
		Expected: "the run finishes within --timeout", Actual: cause.Error(), Message: cause.Error()}}
	rep.Passed = false
	return rep
}

func runCampaign(ctx context.Context, cfg Config, opts lab.Options, rd *runDoc) (*Result, error) {
	c, err := fixture.LoadCampaign(cfg.Campaign)
	if err != nil {
		return nil, err
	}
	var rep *lab.CampaignReport
	Await(ctx, cfg.Grace, func() { rep, err = lab.RunCampaign(ctx, c, opts, cfg.Keep) })
	if rep != nil {
		hashStages(rep)
	}
	stopped, timedOut := ended(ctx)
	if stopped == nil && timedOut == nil && err != nil {
		return nil, err
	}
	if rep == nil { // still winding down after a signal
		rep = &lab.CampaignReport{Path: c.Path, Stages: []lab.StageReport{}, Failures: []string{}}
		for _, st := range c.Stages {
			rep.PlannedStages = append(rep.PlannedStages, st.Name)
		}
	}
	out := &Result{Stopped: stopped, TimedOut: timedOut, Campaign: &CampaignResult{CampaignReport: rep}}
	// The stage that was running when a signal or the bound ended the
	// campaign; RunCampaign does not report it.
	if (stopped != nil || timedOut != nil) && rep.CompletedStages < len(c.Stages) {
		out.Cut = c.Stage(rep.CompletedStages)
	}
	if stopped != nil {
		out.Campaign.Interrupted, out.Campaign.InterruptedStage = true, out.Cut
	} else if timedOut != nil && out.Cut != "" {
		rep.Failures = append(rep.Failures, out.Cut+": "+timedOut.Error())
	}
	for _, st := range rep.Stages {
		rd.add(st.Stage, st.Report, 0)
	}
	for i := rep.CompletedStages; i < len(c.Stages); i++ {
		reason := reports.NotRunReason
		if i == rep.CompletedStages && out.Cut != "" && stopped != nil {
			reason = matrix.InterruptedReason
		}
		rd.skip(c.Stages[i], reason)
	}
	out.Document = rd.document(stopped != nil)
	return out, nil
}

// hashStages fills in the replay hash of every stage report of a campaign.
func hashStages(rep *lab.CampaignReport) {
	for _, st := range rep.Stages {
		if st.Report != nil {
			st.Report.ReplayHash, _ = replay.Build(st.Report).Hash()
		}
	}
}
