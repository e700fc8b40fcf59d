package lab

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/doubles/clock"
	"github.com/galaxy-stack/conform/doubles/model"
	"github.com/galaxy-stack/conform/doubles/store"
	"github.com/galaxy-stack/conform/hosts/proxy"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/internal/wsfs"
	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/galaxy-stack/conform/matrix/oracle"
	"github.com/galaxy-stack/conform/matrix/session"
	"github.com/galaxy-stack/conform/matrix/snapshot"
)

// Options configure how fixtures run.
type Options struct {
	// Argv is the command line of the host under test (builtin.Command).
	Argv []string
	// Task, when set, replaces the goal of a single fixture run (the run
	// ID does not change, LAB §3.1).
	Task string
	// ForbidContainment asks the host to behave as if no containment
	// backend existed (DECISIONS 65), the premise of fixtures that expect
	// required containment to be unavailable.
	ForbidContainment bool
	// Interpose, if set, wraps each host process's pipes: the fault proxy
	// attaches here (hosts/proxy).
	Interpose func(hostOut io.Reader, hostIn io.WriteCloser) (io.Reader, io.WriteCloser)
	// HostEnv names environment variables passed to the host in addition
	// to the harness's allowlist (conform's --host-env).
	HostEnv []string
	// Env, if not nil, is the whole environment of every host process of
	// the run, replacing the allowlist and HostEnv (the host's HOME and
	// TMPDIR are then the caller's to set): matrix item 14 varies TZ and
	// the order of the variables between two runs.
	Env []string
	// Inspect, if set, is called by Run with the run's directories after
	// the run and before they are removed: a caller reads the final
	// workspace there (the txtar scenarios' file assertions).
	Inspect func(Dirs)
	// ClockStartMs is the start of the run's virtual clock, Unix
	// milliseconds (0 by default): what the core records as the time of
	// the run's events and checkpoints.
	ClockStartMs int64
	// Timeout bounds one fixture run, each stage of a campaign on its own,
	// in Run and RunCampaign; zero means DefaultTimeout. A fixture that
	// reaches it fails with a "timeout" failure naming the bound.
	Timeout time.Duration
	// Commands says whether the fixture's calls of process-spawning tools
	// reach the host without verified containment (see CommandTrust); the
	// zero value trusts the fixture.
	Commands CommandTrust
	// DistrustContainment, when not "", says why the host's report of
	// verified containment is not evidence (a mutant of the reference host
	// may report containment it does not apply, or run git unsafely):
	// ContainCommands then refuses every such call, git.exec's included.
	DistrustContainment string
	// MaxReadBytes caps each read of an expected file (oracle.MaxReadBytes
	// when zero): a larger file is LIMIT_EXCEEDED, never read.
	MaxReadBytes int64
	// MaxSnapshotFileBytes is the largest file the harness's snapshots
	// hash (snapshot.MaxFileBytes when zero): a larger one is
	// listed with its size and the reason it was not hashed.
	MaxSnapshotFileBytes int64
}

// Dirs are the directories of one fixture run: the workspace root and the
// host's store directory, which must exist and must not overlap, and the
// directory beside the workspace that holds the fixture's
// conform.outsideFiles ("" when the run has none; it is created if needed).
type Dirs struct {
	Workspace string
	Store     string
	Outside   string
}

// CancelReason is the reason a run is cancelled with when the caller's
// context ends (LAB §3.7).
const CancelReason = "Fixture run canceled by the CLI host."

// tamperSuffix is appended to a checkpoint's nextAction, without updating
// its content hash, by runtime.resume.tamperCheckpoint (LAB §3.9).
const tamperSuffix = " [tampered by fixture]"

// fullContractTools are the nine optional tools a full_contract fixture
// needs the host to offer (LAB §20.1).
var fullContractTools = []string{
	"artifact.create", "artifact.list", "artifact.read", "command.session", "perception.analyze",
	"preview.manage", "research.fetch", "research.search", "user.ask",
}

// An InvocationError means a run could not start as asked: the host
// command cannot be started, the core refuses the fixture's run request
// (DECISIONS 69), or (as matrix.InvocationError, the same type) a
// certification's selection or fault names nothing. File names the fixture
// when there is one. A command line maps it to exit status 2.
type InvocationError struct {
	File string
	Err  error
}

func (e *InvocationError) Error() string {
	if e.File == "" {
		return e.Err.Error()
	}
	return e.File + ": " + e.Err.Error()
}

func (e *InvocationError) Unwrap() error { return e.Err }

// fixtureRun is the state of one fixture run across its executions.
type fixtureRun struct {
	fx       *fixture.Fixture
	set      fixture.Settings
	opts     Options
	dirs     Dirs
	root     *wsfs.Root // the workspace, for every change made on the fixture's behalf
	git      bool
	model    *model.Scripted
	controls *model.Controls
	clock    *clock.Fake
	ids      *clock.IDs
	memStore *store.RunStore // the harness's double, when the host has no store
	memTrace *store.Trace    // likewise for the trace
	trace    *recordingTrace
	rec      *recorder
	storeErr error // the host's store could not list its checkpoints
	audits   []CheckpointAudit
	stored   []checkpoint.Checkpoint

	closeErrs []error  // what closing each host process said, when not nil
	incidents []string // what conform had to do to each host process
	approvals []session.Approval

	wireMu    sync.Mutex
	wire      []WireMessage
	processes int // host processes started

	mu      sync.Mutex
	host    *session.Host
	ctrl    *run.Controller
	proxies []*proxy.Proxy // one per host process, when the fixture declares faults

	commands commandLog // what the command guards refused and allowed
}

// RunFixture runs fx once in dirs against the host of opts.Argv (LAB §3):
// it arranges the initial files, gives the workspace a Git baseline,
// snapshots it, starts and initializes the host, runs the executions the
// fixture's resume policy asks for, snapshots the workspace again and
// checks the oracle.
//
// Ordinary outcomes, a host that breaks the protocol included, are
// reports; so is a fixture path the workspace refuses while the harness
// arranges it (a failure on the assertion "arrange" naming the path, and
// status "arrange_failed"), so the next fixture still runs. The error is
// for what stops the run from happening: an *InvocationError (the host
// command cannot be started, the core refuses the request), a cancelled
// ctx.
func RunFixture(ctx context.Context, fx *fixture.Fixture, dirs Dirs, opts Options) (*Report, error) {
	set := fx.Settings()
	r := &fixtureRun{
		fx: fx, set: set, opts: opts, dirs: dirs,
		model: fx.NewModel(), controls: fx.NewControls(),
		clock: clock.NewFake(opts.ClockStartMs), ids: clock.NewIDs("fixture"),
		trace: &recordingTrace{}, rec: &recorder{},
	}
	root, err := openRoot("workspace", dirs.Workspace)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	r.root = root
	rep := &Report{Fixture: fx.Name, File: fx.File, RunID: fx.RunID()}
	if err := arrange(ctx, root, "initialFiles", fx.InitialFiles); err != nil {
		return r.arrangeFailed(rep, err)
	}
	r.git, _ = gitBaseline(ctx, dirs.Workspace)
	rep.Git = r.git
	var conform fixture.Conform
	if fx.Conform != nil {
		conform = *fx.Conform
	}
	if err := makeEntries(ctx, root, dirs.Outside, "conform.entries", conform.Entries); err != nil {
		return r.arrangeFailed(rep, err)
	}
	outside, err := prepareOutside(ctx, dirs.Outside, conform.OutsideFiles)
	if err != nil {
		return r.arrangeFailed(rep, err)
	}
	initial, err := snapshot.TakeContext(ctx, dirs.Workspace, r.snapshotLimits())
	if err != nil {
		return nil, fmt.Errorf("snapshotting the workspace: %w", err)
	}
	if rep.InitialFiles, err = snapshot.TakeIdentities(ctx, dirs.Workspace); err != nil {
		return nil, fmt.Errorf("recording the workspace's file identities: %w", err)
	}
	if err := r.startHost(ctx); err != nil {
		var ee *exec.Error
		if errors.As(err, &ee) {
			return nil, &InvocationError{Err: fmt.Errorf("host command %q cannot be started: %w", opts.Argv[0], err)}
		}
		return r.hostFailure(rep, "initialize", err), nil
	}
	defer func() { r.currentHost().Close() }() // a no-op once closeHost ran
	r.describeHost(rep)
	rep.PromptInput = PromptSource(r.currentHost().Init.PromptInput)
	rep.HostPromptInput = r.currentHost().Init.PromptInput
	defer func() { rep.PromptSnapshots = r.trace.PromptSnapshots() }()
	if set.ToolProfile == wire.ToolProfileFullContract {
		if missing := r.missingContractTools(); len(missing) > 0 {
			rep.NotApplicable = fmt.Sprintf("the fixture needs the full_contract tool profile; the host does not offer %s (try --host doubles)", strings.Join(missing, ", "))
			rep.Failures = []oracle.Failure{{File: fx.File, Assertion: "runtime.toolProfile",
				Expected: "a host offering the nine full_contract tools", Actual: "missing " + strings.Join(missing, ", "), Message: rep.NotApplicable}}
			rep.Status = "not_applicable"
			return rep, nil
		}
	}
	if i, reason := AbsentCapability(r.currentHost().Init.Capabilities, conform.Faults); reason != "" {
		rep.NotApplicable = reason
		rep.Failures = []oracle.Failure{{File: fx.File, Assertion: fmt.Sprintf("conform.faults[%d]", i),
			Expected: "a host that serves " + conform.Faults[i].Method, Actual: "capabilities." + capabilityOf(conform.Faults[i].Method) + " false", Message: reason}}
		rep.Status = "not_applicable"
		return rep, nil
	}
	results, err := r.executions(ctx)
	if refusal := (*Refusal)(nil); errors.As(err, &refusal) {
		return r.refusedReport(rep, results, refusal), nil
	}
	var ae *arrangeError
	if errors.As(err, &ae) {
		r.closeHost()
		rep.Incidents = r.incidents
		return r.arrangeFailed(rep, err)
	}
	if err != nil {
		return nil, err
	}
	rep.ErrorMessage = results[len(results)-1].ErrorMessage
	obs, err := r.observe(ctx, results, initial)
	if err != nil {
		return nil, err
	}
	rep.Observed = obs
	rep.Status, rep.ErrorCode = obs.Status, obs.ErrorCode
	rep.Transcript = r.rec.transcript
	r.audit(rep)
	rep.Faults = r.faults()
	rep.Failures = oracle.Check(fx, obs)
	if conform.ExpectRefusal != "" {
		rep.Failures = append(rep.Failures, oracle.Failure{File: fx.File, Assertion: "conform.expectRefusal",
			Expected: "the core refuses the run request: " + conform.ExpectRefusal,
			Actual:   fmt.Sprintf("the core accepted it and the run made %d model requests", obs.ModelRequestCount),
			Message:  "The core accepted a run request it must refuse before the first model request (" + conform.ExpectRefusal + ")"})
	}
	r.reportCommands(rep)
	if outside != nil {
		octx, cancel := observeContext(ctx)
		changed, err := outside.changes(octx)
		cancel()
		if err != nil {
			return nil, err
		}
		if len(changed) > 0 {
			rep.Failures = append(rep.Failures, oracle.Failure{File: fx.File, Assertion: "outside",
				Expected: "nothing outside the workspace root changes", Actual: describeChanges(changed),
				Message: "The run changed the directory beside the workspace: " + describeChanges(changed)})
		}
	}
	r.closeHost()
	rep.Incidents = r.incidents
	rep.Approvals, rep.Wire = r.approvals, r.wireLog()
	if len(r.closeErrs) > 0 && r.currentHost().HostError() == nil && len(rep.Faults) == 0 {
		msg := errors.Join(r.closeErrs...).Error()
		rep.Failures = append(rep.Failures, oracle.Failure{File: fx.File, Assertion: "host",
			Expected: "the host exits when asked to shut down", Actual: msg, Message: "The host did not shut down cleanly: " + msg})
		rep.HostFailure = HostFailedTransport
		rep.HostStderr = r.currentHost().Stderr()
	}
	// A broken connection is the host's fault unless the fixture's own fault
	// rules broke it: then failing closed is what the oracle checks.
	if herr := r.currentHost().HostError(); herr != nil && len(rep.Faults) == 0 {
		rep.Failures = append(rep.Failures, oracle.Failure{File: fx.File, Assertion: "host",
			Expected: "the host keeps to the protocol", Actual: herr.Error(), Message: brokeProtocol(herr)})
		rep.HostFailure = hostFailureOf(herr)
		rep.HostStderr = r.currentHost().Stderr()
	}
	if r.storeErr != nil && len(rep.Faults) == 0 {
		rep.Failures = append(rep.Failures, oracle.Failure{File: fx.File, Assertion: "checkpointIntegrity",
			Expected: "the host's store lists the persisted checkpoints", Actual: r.storeErr.Error(),
			Message: "The host's store could not list its checkpoints: " + r.storeErr.Error()})
	}
	rep.Passed = len(rep.Failures) == 0
	quoteStderrOnce(rep)
	return rep, nil
}

// storeError is a host store that cannot list what it holds.
type storeError struct{ err error }

func (e *storeError) Error() string { return e.err.Error() }

func (r *fixtureRun) hostFailure(rep *Report, phase string, err error) *Report {
	rep.Status = "host_failed"
	rep.HostFailure = hostFailureOf(err)
	rep.Failures = []oracle.Failure{{File: r.fx.File, Assertion: "host",
		Expected: "the host " + phase + "s", Actual: err.Error(), Message: "The host failed to " + phase + ": " + err.Error()}}
	return rep
}

// closeHost shuts the current host process down and keeps what that took:
// an error (a host that had to be killed) and the client's incidents.
func (r *fixtureRun) closeHost() {
	h := r.currentHost()
	if err := h.Close(); err != nil && h.HostError() == nil {
		r.closeErrs = append(r.closeErrs, err)
	}
	for _, inc := range h.Incidents() {
		if killedForBreak(inc) && r.proxyBrokeTransport() {
			continue // conform's own fault broke the transport, not the host
		}
		r.incidents = append(r.incidents, inc)
	}
	r.approvals = append(r.approvals, h.Approvals()...)
}

// killedForBreak reports whether inc is what hostproc.Client reports when
// it kills a host whose transport broke: the kill itself, and the
// processes the killed host had no chance to end. When a fault of the
// fixture broke the transport (proxy.Proxy.BrokeTransport), the host
// broke nothing: these are conform's doing, recorded in the report's
// faults, and never the host's incidents.
func killedForBreak(inc string) bool {
	return inc == "killed the host after it broke the protocol" ||
		strings.HasPrefix(inc, "killed ") && strings.HasSuffix(inc, " process(es) the host left running when it exited")
}

// proxyBrokeTransport reports whether the fault proxy of the current host
// process ended or corrupted its transport.
func (r *fixtureRun) proxyBrokeTransport() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.proxies) > 0 && r.proxies[len(r.proxies)-1].BrokeTransport()
}

// observer returns the OnSend and OnRecv hooks of the next host process:
// they add its messages to the run's wire record.
func (r *fixtureRun) observer() (onSend, onRecv func([]byte)) {
	r.wireMu.Lock()
	r.processes++
	n := r.processes
	r.wireMu.Unlock()
	add := func(sent bool) func([]byte) {
		return func(line []byte) {
			m := WireMessage{Process: n, Sent: sent, Line: slices.Clone(line)}
			r.wireMu.Lock()
			r.wire = append(r.wire, m)
			r.wireMu.Unlock()
		}
	}
	return add(true), add(false)
}

// wireLog returns the run's wire record so far.
func (r *fixtureRun) wireLog() []WireMessage {
	r.wireMu.Lock()
	defer r.wireMu.Unlock()
	return slices.Clone(r.wire)
}

func (r *fixtureRun) currentHost() *session.Host {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.host
}

func (r *fixtureRun) describeHost(rep *Report) {
	h := r.currentHost()
	rep.Host = h.Init.Host
	if c := h.Init.Containment; c != nil {
		cc := *c
		rep.CommandContainment = &cc
	}
	rep.Doubles = append(rep.Doubles, h.Init.Doubles...)
	if h.RunStore() == nil {
		rep.Doubles = append(rep.Doubles, "run store")
	}
	if h.Trace() == nil {
		rep.Doubles = append(rep.Doubles, "trace")
	}
}

func (r *fixtureRun) missingContractTools() []string {
	offered := r.currentHost().Init.Tools
	var missing []string
	for _, id := range fullContractTools {
		if !slices.Contains(offered, id) {
			missing = append(missing, id)
		}
	}
	return missing
}

// startHost starts a fresh host process on the fixture's directories and
// builds a controller around it: the first host, or the one a recreateHost
// resume asks for. The model, the clock, the IDs, the controls and the
// harness's doubles carry over.
func (r *fixtureRun) startHost(ctx context.Context) error {
	interpose, err := r.interpose()
	if err != nil {
		return err
	}
	cfg := session.HostConfig{
		Argv: r.opts.Argv, Workspace: r.dirs.Workspace, StoreDir: r.dirs.Store,
		Mode: r.set.Mode, ApprovalProfile: r.set.ApprovalProfile, Containment: r.set.CommandContainment,
		ToolProfile: r.set.ToolProfile, ForbidContainment: r.forbidContainment(), Approvals: r.fx.ApprovalDecisions,
		Interpose: interpose, PassEnv: r.opts.HostEnv, Env: r.opts.Env,
	}
	if c := r.fx.Conform; c != nil {
		cfg.Approver, cfg.ApprovalTimeoutMs = c.Approver, c.ApprovalTimeoutMs
	}
	cfg.OnSend, cfg.OnRecv = r.observer()
	if !r.git {
		cfg.WithoutTools = []string{"git.exec"}
	}
	h, err := session.StartHost(ctx, cfg)
	if err != nil {
		return err
	}
	deps := run.Deps{
		Model: r.model, Tools: r.guardCommands(h.Executor(), h.Init), Verifier: h.Verifier(), Trace: r.trace,
		OnEvent: r.onEvent, Clock: r.clock, IDs: r.ids, Sleeper: r.clock,
	}
	if s := h.RunStore(); s != nil {
		deps.Store = s
	} else {
		if r.memStore == nil {
			r.memStore = store.NewRunStore()
		}
		deps.Store = r.memStore
	}
	if t := h.Trace(); t != nil {
		r.trace.use(t)
	} else {
		if r.memTrace == nil {
			r.memTrace = store.NewTrace()
		}
		r.trace.use(r.memTrace)
	}
	ctrl := run.New(deps)
	r.mu.Lock()
	r.host, r.ctrl = h, ctrl
	r.mu.Unlock()
	return nil
}

// onEvent records every runtime event and applies the controls that fire
// on it to the active run (LAB §3.7).
func (r *fixtureRun) onEvent(ev run.Event) {
	r.rec.add(ev, r.model.RequestCount())
	for _, f := range r.controls.Observe(ev.Type) {
		r.mu.Lock()
		ctrl := r.ctrl
		r.mu.Unlock()
		if f.Action == model.ActionCancel {
			ctrl.Cancel(ev.RunID, f.Reason)
		} else {
			ctrl.Pause(ev.RunID, f.Reason)
		}
	}
}

// wait waits for h, cancelling the run when ctx ends first.
func (r *fixtureRun) wait(ctx context.Context, h *run.Handle) run.Result {
	select {
	case <-h.Done():
	case <-ctx.Done():
		h.Cancel(CancelReason)
	}
	return h.Wait()
}

// executions runs execution 1 and the resumes of LAB §3.9.
func (r *fixtureRun) executions(ctx context.Context) ([]run.Result, error) {
	h := r.currentHost()
	base := request(r.fx, r.set, r.dirs.Workspace, r.opts.Task, h.Init, h.HostEnvironment())
	var conform fixture.Conform
	if r.fx.Conform != nil {
		conform = *r.fx.Conform
	}
	req, err := promptRequest(base, h.Init.PromptInput, conform.RequestMembers)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	ctrl := r.ctrl
	r.mu.Unlock()
	handle, err := ctrl.Start(req)
	if err != nil {
		return nil, r.refused(err)
	}
	results := []run.Result{r.wait(ctx, handle)}
	resume := r.set.Resume
	for resume != nil && len(results) < r.set.MaxExecutions {
		prev := results[len(results)-1]
		if oracle.StatusOf(prev.Status) != resume.On || prev.Checkpoint == nil {
			break
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := arrange(ctx, r.root, "mutateBeforeResume", resume.MutateBeforeResume); err != nil {
			return nil, err
		}
		if err := r.entriesBeforeResume(ctx); err != nil {
			return nil, err
		}
		if r.fx.Conform != nil {
			if change := fixture.Reprobe(r.fx.Conform.ReprobeBeforeResume); change != nil {
				r.model.Reprobe(change)
			}
		}
		if resume.RecreateHost {
			old := r.currentHost()
			if r.closeHost(); old.HostError() != nil {
				// A protocol break ends the fixture; the report says so.
				return results, nil
			}
			if err := r.startHost(ctx); err != nil {
				return nil, fmt.Errorf("restarting the host for a fresh-host resume: %w", err)
			}
		}
		data, trust, err := r.resumeCheckpoint(ctx, prev.Checkpoint)
		if err != nil {
			return nil, err
		}
		// The resume request holds the prompt input of the host that serves
		// it: a fresh host process answers initialize anew.
		rreq, err := promptRequest(base, r.currentHost().Init.PromptInput, conform.RequestMembers, conform.ResumeRequestMembers)
		var refusal *Refusal
		if errors.As(err, &refusal) {
			refusal.Resume = true
		}
		if err != nil {
			return results, err
		}
		rreq.Checkpoint, rreq.CheckpointTrust = data, trust
		r.mu.Lock()
		ctrl = r.ctrl
		r.mu.Unlock()
		handle, err := ctrl.Resume(rreq)
		if err != nil {
			return nil, r.refused(err)
		}
		results = append(results, r.wait(ctx, handle))
	}
	return results, nil
}

func (r *fixtureRun) refused(err error) error {
	var re *run.RequestError
	if errors.As(err, &re) {
		return &InvocationError{File: r.fx.File, Err: fmt.Errorf("the core refuses the fixture's run request: %s", re.Message)}
	}
	return err
}

// observe fills the oracle's record from the results of every execution,
// the recorder, the stores and the harness's own final snapshot.
func (r *fixtureRun) observe(ctx context.Context, results []run.Result, initial snapshot.Snapshot) (*oracle.Observed, error) {
	last := results[len(results)-1]
	obs := &oracle.Observed{
		Status:                       oracle.StatusOf(last.Status),
		ModelRequestCount:            r.model.RequestCount(),
		ModelRoundsConsumed:          r.model.RoundsConsumed(),
		ModelTokenCountStepsConsumed: r.model.TokenStepsConsumed(),
		FinalResponse:                last.FinalResponse,
		ControlsFired:                oracle.ControlsFired(len(r.fx.Controls), r.controls.Unfired()),
		Initial:                      initial,
	}
	if last.ErrorCode != "" {
		code := last.ErrorCode
		obs.ErrorCode = &code
	}
	for _, res := range results {
		obs.ExecutionStatuses = append(obs.ExecutionStatuses, oracle.StatusOf(res.Status))
		for _, t := range res.Transitions {
			obs.Transitions = append(obs.Transitions, t.From+"->"+t.To)
		}
	}
	for _, d := range r.clock.SleepsMs() {
		obs.RetryDelaysMs = append(obs.RetryDelaysMs, int(d))
	}
	r.rec.mu.Lock()
	obs.ToolSequence = slices.Clone(r.rec.sequence)
	obs.ToolResults = slices.Clone(r.rec.results)
	obs.CompletionRejections = slices.Clone(r.rec.rejections)
	obs.ContextPressures = slices.Clone(r.rec.pressures)
	r.rec.mu.Unlock()
	obs.TraceKinds = r.trace.Kinds()
	for _, w := range last.Writes {
		obs.Writes = append(obs.Writes, port.Write{Path: w.Path, BeforeHash: w.BeforeHash, AfterHash: w.AfterHash,
			BeforeKind: string(w.BeforeKind), AfterKind: string(w.AfterKind)})
	}
	cps, err := r.persistedCheckpoints(ctx)
	var se *storeError
	if errors.As(err, &se) {
		r.storeErr = se.err
	} else if err != nil {
		return nil, err
	}
	obs.Checkpoints = cps
	sctx, cancel := observeContext(ctx)
	defer cancel()
	if obs.Final, err = snapshot.TakeContext(sctx, r.dirs.Workspace, r.snapshotLimits()); err != nil {
		return nil, fmt.Errorf("snapshotting the workspace: %w", err)
	}
	obs.Files = oracle.ReadFiles(r.root, r.fx, r.opts.MaxReadBytes)
	return obs, nil
}

// observeContext is the context of the final snapshot of a run whose
// context ctx may have been canceled on purpose (a scenario that cancels
// the run still has its workspace observed): it keeps ctx's deadline, so
// --timeout still bounds the snapshot, but not its cancellation.
func observeContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if dl, ok := ctx.Deadline(); ok {
		return context.WithDeadline(context.WithoutCancel(ctx), dl)
	}
	return context.WithCancel(context.WithoutCancel(ctx))
}

// snapshotLimits are the bounds of the run's snapshots.
func (r *fixtureRun) snapshotLimits() snapshot.Limits {
	return snapshot.Limits{MaxFileBytes: r.opts.MaxSnapshotFileBytes}
}

// arrangeFailed ends the run with rep failed when err is an arrangeError:
// the fixture names a path the workspace refuses. Any other error stops
// the run as it is.
func (r *fixtureRun) arrangeFailed(rep *Report, err error) (*Report, error) {
	var ae *arrangeError
	if !errors.As(err, &ae) {
		return nil, err
	}
	rep.Status = "arrange_failed"
	rep.Failures = append(rep.Failures, oracle.Failure{File: r.fx.File, Assertion: "arrange",
		Expected: "the workspace holds every path the fixture arranges", Actual: ae.Error(),
		Message: "The harness could not arrange the fixture: " + ae.Error()})
	rep.Passed = false
	return rep, nil
}

// persistedCheckpoints reads back every checkpoint the run store holds for
// the fixture's run, in save order, and checks each with the core's
// integrity assertion (LAB §4.20).
func (r *fixtureRun) persistedCheckpoints(ctx context.Context) ([]oracle.Checkpoint, error) {
	docs, err := r.checkpointDocs(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]oracle.Checkpoint, 0, len(docs))
	for _, d := range docs {
		var head struct {
			Reason      string `json:"reason"`
			ContentHash string `json:"contentHash"`
		}
		_ = json.Unmarshal(d, &head)
		c := oracle.Checkpoint{Reason: head.Reason, ContentHash: head.ContentHash}
		if _, err := checkpoint.Assert(d); err != nil {
			c.IntegrityError = err.Error()
		}
		out = append(out, c)
		r.audits = append(r.audits, auditCheckpoint(d))
		var cp checkpoint.Checkpoint
		if json.Unmarshal(d, &cp) == nil {
			r.stored = append(r.stored, cp)
		}
	}
	return out, nil
}

// checkpointDocs returns every checkpoint document the run store holds
// for the fixture's run, in save order.
func (r *fixtureRun) checkpointDocs(ctx context.Context) ([][]byte, error) {
	var docs [][]byte
	if r.memStore != nil {
		for _, d := range r.memStore.CheckpointHistory() {
			docs = append(docs, d)
		}
	} else {
		var err error
		if docs, err = r.currentHost().Checkpoints(ctx, r.fx.RunID()); err != nil {
			return nil, &storeError{err}
		}
	}
	return docs, nil
}

// audit fills the report's audits: the checkpoint audits persistedCheckpoints
// read, the model requests and the model-context audit, the trace flushes.
func (r *fixtureRun) audit(rep *Report) {
	goal := r.fx.Task
	if r.opts.Task != "" {
		goal = r.opts.Task
	}
	rep.CheckpointAudits = append([]CheckpointAudit{}, r.audits...)
	rep.Checkpoints = append([]checkpoint.Checkpoint{}, r.stored...)
	rep.ModelRequests = r.model.Records(goal)
	saved := make([]string, 0, len(r.audits))
	for _, a := range r.audits {
		saved = append(saved, a.ContentHash)
	}
	ca := r.model.Audit(goal, saved)
	rep.ModelContext = &ca
	rep.TraceFlushes = r.trace.Flushes()
}

// forbidContainment reports whether the host must treat every containment
// backend as unavailable: asked for by the caller or by the fixture's
// conform key (DECISIONS 65).
func (r *fixtureRun) forbidContainment() bool {
	return r.opts.ForbidContainment || (r.fx.Conform != nil && r.fx.Conform.ForbidContainmentBackends)
}

// interpose returns what wraps the next host process's pipes: the fault
// proxy for the fixture's conform.faults, in front of the caller's own
// Interpose, if any. Each host process gets a fresh proxy, so occurrence
// counts start again after a recreateHost resume.
func (r *fixtureRun) interpose() (func(io.Reader, io.WriteCloser) (io.Reader, io.WriteCloser), error) {
	outer := r.opts.Interpose
	if r.fx.Conform == nil || len(r.fx.Conform.Faults) == 0 {
		return outer, nil
	}
	p, err := proxy.New(r.fx.Conform.Faults)
	if err != nil {
		return nil, fmt.Errorf("%s: $.conform.faults: %w", r.fx.File, err)
	}
	r.mu.Lock()
	r.proxies = append(r.proxies, p)
	r.mu.Unlock()
	return func(hostOut io.Reader, hostIn io.WriteCloser) (io.Reader, io.WriteCloser) {
		out, in := p.Attach(hostOut, hostIn)
		if outer != nil {
			return outer(out, in)
		}
		return out, in
	}, nil
}

// faults lists the faults the proxies injected, host process by host
// process, in order.
func (r *fixtureRun) faults() []proxy.Fault {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []proxy.Fault
	for _, p := range r.proxies {
		out = append(out, p.Faults()...)
	}
	return out
}
