package lab

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/hosts/wire/hostproc"
	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/galaxy-stack/conform/matrix/oracle"
)

// NewDirs creates the directories of one run under parent: parent/workspace,
// parent/store and parent/outside. parent is created if needed.
func NewDirs(parent string) (Dirs, error) {
	d := Dirs{Workspace: filepath.Join(parent, "workspace"), Store: filepath.Join(parent, "store"), Outside: filepath.Join(parent, fixture.OutsideDir)}
	for _, p := range []string{d.Workspace, d.Store, d.Outside} {
		if err := os.MkdirAll(p, 0o755); err != nil {
			return Dirs{}, err
		}
	}
	var err error
	if d.Workspace, err = filepath.EvalSymlinks(d.Workspace); err != nil {
		return Dirs{}, err
	}
	if d.Store, err = filepath.EvalSymlinks(d.Store); err != nil {
		return Dirs{}, err
	}
	if d.Outside, err = filepath.EvalSymlinks(d.Outside); err != nil {
		return Dirs{}, err
	}
	return d, nil
}

// Run runs fx in a fresh temporary directory that holds its workspace and
// store directory. With keep the directory stays and Report.Workspace names
// the workspace; otherwise it is removed.
func Run(ctx context.Context, fx *fixture.Fixture, opts Options, keep bool) (*Report, error) {
	parent, done, err := tempParent("conform-run-", keep)
	if err != nil {
		return nil, err
	}
	defer done()
	dirs, err := NewDirs(parent)
	if err != nil {
		return nil, err
	}
	rep, err := runBounded(ctx, fx, dirs, opts)
	if rep != nil && opts.Inspect != nil {
		opts.Inspect(dirs)
	}
	if rep != nil && keep {
		rep.Workspace = dirs.Workspace
	}
	return rep, err
}

// tempParent makes a fresh temporary directory named with prefix for one
// run; done removes it unless keep.
func tempParent(prefix string, keep bool) (parent string, done func(), err error) {
	parent, err = os.MkdirTemp("", prefix)
	if err != nil {
		return "", nil, err
	}
	return parent, func() {
		if !keep {
			os.RemoveAll(parent)
		}
	}, nil
}

// RunCampaign runs the stages of c in order on one shared workspace (LAB
// §7.4). Each stage is a full fixture run with its own host process, store
// directory, arrangement and run ID; the Git baseline is made once, by the
// first stage. The campaign stops after the first stage that does not meet
// its oracle; a stage that expects a failed, canceled or paused status and
// gets it passes, so later stages test recovery.
//
// With keep the campaign's directory stays and CampaignReport.Workspace
// names the shared workspace. When ctx ends, the campaign stops: the stage
// running then is not reported, and the error is ctx's cause.
func RunCampaign(ctx context.Context, c *fixture.Campaign, opts Options, keep bool) (*CampaignReport, error) {
	parent, done, err := tempParent("conform-campaign-", keep)
	if err != nil {
		return nil, err
	}
	defer done()
	ws := filepath.Join(parent, "workspace")
	if err := os.Mkdir(ws, 0o755); err != nil {
		return nil, err
	}
	if ws, err = filepath.EvalSymlinks(ws); err != nil {
		return nil, err
	}
	rep := &CampaignReport{Path: c.Path, Stages: []StageReport{}, Failures: []string{}}
	if keep {
		rep.Workspace = ws
	}
	for _, st := range c.Stages {
		rep.PlannedStages = append(rep.PlannedStages, st.Name)
	}
	stageOpts := opts
	stageOpts.Task = ""
	for i, fx := range c.Stages {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		store := filepath.Join(parent, fmt.Sprintf("store-%03d", i+1))
		if err := os.Mkdir(store, 0o755); err != nil {
			return rep, err
		}
		if store, err = filepath.EvalSymlinks(store); err != nil {
			return rep, err
		}
		outside := filepath.Join(parent, fmt.Sprintf("outside-%03d", i+1))
		r, err := runBounded(ctx, fx, Dirs{Workspace: ws, Store: store, Outside: outside}, stageOpts)
		if ctx.Err() != nil {
			// The caller ended the campaign (a signal, its own deadline)
			// while this stage ran: the stage did not finish and is not
			// reported.
			return rep, context.Cause(ctx)
		}
		if err != nil {
			return rep, fmt.Errorf("%s: %w", c.Stage(i), err)
		}
		// r.Failures are oracle.Check's failures (what CheckStage would
		// find) plus any host failure, which fails the stage too.
		verdict := oracle.StageResult{Stage: c.Stage(i), Failures: r.Failures, Passed: r.Passed, Negative: oracle.ExpectsNegative(fx)}
		rep.Stages = append(rep.Stages, StageReport{Stage: c.Stage(i), Negative: verdict.Negative, Report: r})
		rep.CompletedStages++
		if !verdict.Passed {
			rep.Failures = verdict.Messages()
			return rep, nil
		}
	}
	rep.Passed = true
	return rep, nil
}

// DefaultTimeout bounds one fixture run unless Options.Timeout says
// otherwise: the bound of one tool call that carries no timeoutMs (the
// catalog's 120 s plus hostproc.DispatchMargin) plus two minutes for the
// fixture's other calls and host start-ups.
const DefaultTimeout = time.Duration(catalog.DefaultToolTimeoutMs)*time.Millisecond + hostproc.DispatchMargin + 2*time.Minute

// runBounded runs fx under the fixture bound of opts. When the bound, not
// ctx, ends the run, the report fails with a "timeout" failure that names
// the bound, its only failure; when ctx ends it, the caller's cause stands and the result is
// returned as RunFixture gave it.
func runBounded(ctx context.Context, fx *fixture.Fixture, dirs Dirs, opts Options) (*Report, error) {
	d := opts.Timeout
	if d <= 0 {
		d = DefaultTimeout
	}
	cause := fmt.Errorf("fixture timed out after %s (the per-fixture bound)", d)
	fctx, cancel := context.WithTimeoutCause(ctx, d, cause)
	defer cancel()
	rep, err := RunFixture(fctx, fx, dirs, opts)
	if ctx.Err() != nil || context.Cause(fctx) != cause {
		return rep, err
	}
	if rep == nil {
		rep = &Report{Fixture: fx.Name, File: fx.File, RunID: fx.RunID(), Status: "timed_out"}
	}
	// What the oracle saw of a run cut short says nothing about the host:
	// the bound is the one failure.
	rep.Failures = []oracle.Failure{{File: fx.File, Assertion: "timeout",
		Expected: fmt.Sprintf("the fixture finishes within %s", d), Actual: cause.Error(), Message: cause.Error()}}
	rep.Passed = false
	return rep, nil
}
