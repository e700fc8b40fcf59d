package command

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/galaxy-stack/conform/core/prompt"
	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
)

// Options configure a [Runner].
type Options struct {
	// Root is the workspace root. It is resolved to its real path once;
	// every cwd is checked against that path.
	Root string
	// Containment is the policy; "" means BestEffort. Any other value is
	// INVALID_INPUT "containment must be 'best_effort' or 'required'.".
	Containment Mode
	// Probe is the containment probe the status is derived from, normally
	// (*Prober).Probe of the host's one Prober, or ForbiddenProbe() when
	// the session forbids every backend. nil means no probe was run:
	// containment is unavailable.
	Probe *ProbeResult
	// SpillDir, when set, receives one file per stream per call holding
	// the complete output. It must exist and lie outside the workspace.
	SpillDir string
	// Environment is the host environment to publish and spawn from; nil
	// means DetectEnvironment().
	Environment *prompt.HostEnvironment
	// HostEnv is the host process environment the inherited variables are
	// read from, as os.Environ returns it; nil means os.Environ() at New.
	HostEnv []string
	// Faults switches on named deviations from the conformant runner; the
	// zero value switches none on. Only the mutants use them.
	Faults Faults
}

// A Runner runs commands for one workspace: it is the reference host's
// command port (LAB_AND_HOSTS §11). Its environment and containment status
// are fixed when it is created. A Runner is safe for concurrent use.
//
// Run returns only after every process of the command is gone, so a
// workspace snapshot taken after Run returns observes the command's final
// effects: the caller brackets Run with its before and after captures to
// derive changed paths (LAB_AND_HOSTS §20.3).
type Runner struct {
	root        string
	env         prompt.HostEnvironment
	status      Status
	hostEnv     map[string]string
	spillDir    string
	unshareUser bool
	faults      Faults
	// loginShell is the host's SHELL, read for the SpawnLoginShell fault.
	loginShell string
}

// New returns a Runner for opts.Root. It fails if the root is not a
// directory, the policy is unknown, the platform has no interpreter, or
// the spill directory is missing or inside the workspace.
func New(opts Options) (*Runner, error) {
	mode := opts.Containment
	if mode == "" {
		mode = BestEffort
	}
	if mode != BestEffort && mode != Required {
		return nil, fail(hosterr.InvalidInput, "containment must be 'best_effort' or 'required'.")
	}
	root, err := canonicalRoot(opts.Root)
	if err != nil {
		return nil, err
	}
	var env prompt.HostEnvironment
	if opts.Environment != nil {
		env = opts.Environment.Clone()
	} else if env, err = DetectEnvironment(); err != nil {
		return nil, err
	}
	probe := notProbed()
	if opts.Probe != nil {
		probe = *opts.Probe
	}
	hostEnv := opts.HostEnv
	if hostEnv == nil {
		hostEnv = os.Environ()
	}
	r := &Runner{
		root:        root,
		env:         env,
		status:      StatusFor(mode, probe),
		hostEnv:     hostEnvMap(hostEnv),
		unshareUser: os.Geteuid() == 0,
		faults:      opts.Faults,
	}
	if opts.Faults.SpawnLoginShell {
		r.loginShell = os.Getenv("SHELL")
	}
	if opts.SpillDir != "" {
		if r.spillDir, err = r.checkSpillDir(opts.SpillDir); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Root returns the workspace root's real path.
func (r *Runner) Root() string { return r.root }

// Environment returns a copy of the host environment the Runner publishes
// and spawns from.
func (r *Runner) Environment() prompt.HostEnvironment { return r.env.Clone() }

// Containment returns the containment status the Runner enforces.
func (r *Runner) Containment() Status { return r.status }

// checkSpillDir resolves a spill directory and refuses one inside the
// workspace, where spill files would show up as workspace changes.
func (r *Runner) checkSpillDir(dir string) (string, error) {
	real, err := canonicalRoot(dir)
	if err != nil {
		return "", fmt.Errorf("command: spill directory: %w", err)
	}
	if inside(r.root, real) {
		return "", fmt.Errorf("command: spill directory %q is inside the workspace", dir)
	}
	return real, nil
}

// Run runs one command (LAB_AND_HOSTS §11.2). Validation failures, a
// finished context or elapsed deadline before spawn, the containment gate
// and spawn failures are *Error values with the port's code and message;
// no process is started for any of them. Once spawned, the command always
// yields a Result: a non-zero exit is status "exited" with that code, the
// timeout (the earlier of TimeoutMs and the deadlines) is "timed_out", and
// ctx being canceled is "canceled"; in the last two cases the whole
// process group is terminated. The command runs in the validated cwd with
// the minimal environment, stdin closed and no terminal; when containment
// is active it runs inside bubblewrap after the hard-link preflight.
func (r *Runner) Run(ctx context.Context, req Request) (Result, error) {
	if err := r.checkTime(ctx, req); err != nil {
		return Result{}, err
	}
	if err := validateCommand(req.Command); err != nil {
		return Result{}, err
	}
	if r.faults.IgnoreCallTimeout {
		req.TimeoutMs = 0
	}
	if r.faults.IgnoreCallDeadline {
		var stop func()
		ctx, stop = withoutDeadline(ctx)
		defer stop()
		req.Deadline = time.Time{}
	}
	resolve := resolveCwd
	switch {
	case r.faults.CwdEscape:
		resolve = escapingCwd
	case r.faults.CwdPrefixCheck:
		resolve = func(root, rel string) (string, error) {
			return resolveCwdWith(root, rel, func(root, c string) bool { return strings.HasPrefix(c, root) })
		}
	case r.faults.CwdLexicalOnly:
		resolve = func(root, rel string) (string, error) {
			return resolveCwdWith(root, rel, func(string, string) bool { return true })
		}
	}
	cwd, err := resolve(r.root, req.Cwd)
	if err != nil {
		return Result{}, err
	}
	if err := r.checkTime(ctx, req); err != nil {
		return Result{}, err
	}
	ctxDeadline, hasCtxDeadline := ctx.Deadline()
	timeout, err := effectiveTimeout(req, time.Now(), ctxDeadline, hasCtxDeadline)
	if err != nil {
		return Result{}, err
	}
	limit, err := outputLimit(req.MaxOutputBytes)
	if err != nil {
		return Result{}, err
	}
	if r.faults.UnboundedOutput {
		limit = UnboundedOutputBytes
	}
	env, err := childEnv(r.hostEnv, req.Env)
	if err != nil {
		return Result{}, err
	}
	if err := r.status.gate(); err != nil && !r.faults.SkipContainmentGate {
		return Result{}, err
	}
	l, err := r.launch(req.Command, cwd, env, req.Env)
	if err != nil {
		return Result{}, err
	}
	errLimit := limit
	if r.faults.UnboundedStderr {
		errLimit = UnboundedOutputBytes
	}
	out, errs := &stream{tail: newTailBuffer(limit)}, &stream{tail: newTailBuffer(errLimit)}
	if err := r.openSpills(req.SpillDir, out, errs); err != nil {
		return Result{}, err
	}
	if r.faults.SpillStdoutOnly {
		closeSpill(errs)
	}
	if r.faults.TruncateSpill {
		out.spillMax, errs.spillMax = int64(limit), int64(limit)
	}
	if r.faults.MergeSpill && errs.spill != nil {
		closeSpill(errs)
		errs.spill, errs.keepOpen, out.keepOpen = out.spill, true, true
	}
	o, err := supervise(ctx, l, timeout, out, errs, r.faults)
	if out.keepOpen {
		if cerr := out.spill.Close(); cerr != nil && out.spillErr == nil {
			out.spillErr = cerr
		}
	}
	if err != nil {
		closeSpill(out)
		closeSpill(errs)
		return Result{}, err
	}
	if r.faults.SignalExitZero && o.exitCode == nil && o.status == StatusExited {
		zero := 0
		o.exitCode = &zero
	}
	res := Result{
		Command:         req.Command,
		DurationMs:      o.duration.Milliseconds(),
		ExitCode:        o.exitCode,
		Status:          o.status,
		Stdout:          out.tail.Text(),
		Stderr:          errs.tail.Text(),
		StdoutTruncated: out.tail.Truncated(),
		StderrTruncated: errs.tail.Truncated(),
		StdoutBytes:     out.tail.Total(),
		StderrBytes:     errs.tail.Total(),
		StdoutSpill:     out.spillPath,
		StderrSpill:     errs.spillPath,
		Contained:       r.status.Active,
	}
	if out.spillErr != nil {
		res.SpillErr = out.spillErr
	} else if errs.spillErr != nil {
		res.SpillErr = errs.spillErr
	}
	return res, nil
}

// checkTime fails when ctx has ended or the request deadline has passed
// (LAB_AND_HOSTS §11.2 steps 1 and 4).
func (r *Runner) checkTime(ctx context.Context, req Request) error {
	if err := contextError(ctx); err != nil {
		return err
	}
	if !req.Deadline.IsZero() && !time.Now().Before(req.Deadline) {
		return fail(hosterr.DeadlineExceeded, msgDeadline)
	}
	return nil
}

// launch builds the process to start: the published interpreter argv in
// cwd, or, when containment is active, bwrap wrapping that argv with the
// sandbox environment (LAB_AND_HOSTS §11.2 step 8). env is the child's
// environment; callEnv, the call's own env, only reaches argv.
func (r *Runner) launch(command, cwd string, env, callEnv map[string]string) (launch, error) {
	argv := r.argv(command, callEnv)
	if !r.status.Active || r.faults.BypassActiveContainment {
		path, err := lookPath(argv[0])
		if err != nil {
			return launch{}, err
		}
		return launch{path: path, argv: argv, dir: cwd, env: envList(env)}, nil
	}
	if r.status.Backend != LinuxBubblewrap || r.status.Executable == nil {
		return launch{}, fail(hosterr.Unavailable, msgNoImplementation)
	}
	if err := CheckHardLinks(r.root); err != nil {
		return launch{}, err
	}
	for _, name := range []string{"HOME", "TEMP", "TMP", "TMPDIR"} {
		env[name] = "/tmp"
	}
	args, err := BubblewrapArgs(BubblewrapInput{
		Command: argv[0], Args: argv[1:], Cwd: cwd, Env: env,
		Workspace: r.root, UnshareUser: r.unshareUser,
	})
	if err != nil {
		return launch{}, err
	}
	bwrap := *r.status.Executable
	return launch{path: bwrap, argv: append([]string{bwrap}, args...), dir: r.root, env: envList(env)}, nil
}

// lookPath resolves a bare executable name (cmd.exe) on the host PATH;
// absolute paths are used as they are.
func lookPath(exe string) (string, error) {
	if filepath.IsAbs(exe) {
		return exe, nil
	}
	path, err := exec.LookPath(exe)
	if err != nil {
		return "", spawnError(err)
	}
	return path, nil
}

// openSpills creates the spill files of one call, if a directory applies.
func (r *Runner) openSpills(override string, out, errs *stream) error {
	dir := r.spillDir
	if override != "" {
		var err error
		if dir, err = r.checkSpillDir(override); err != nil {
			return &hosterr.Error{Library: library, Code: hosterr.InvalidInput, Message: "The command spill directory is unusable.", Err: err}
		}
	}
	if dir == "" {
		return nil
	}
	for _, s := range []struct {
		st     *stream
		suffix string
	}{{out, "stdout"}, {errs, "stderr"}} {
		f, err := os.CreateTemp(dir, "command-*."+s.suffix)
		if err != nil {
			closeSpill(out)
			closeSpill(errs)
			return &hosterr.Error{Library: library, Code: hosterr.IOError, Message: "The command spill file could not be created.", Err: err}
		}
		s.st.spill, s.st.spillPath = f, f.Name()
	}
	return nil
}

// closeSpill closes and removes a spill file of a call that never ran.
func closeSpill(s *stream) {
	if s.spill != nil {
		s.spill.Close()
		os.Remove(s.spillPath)
		s.spill, s.spillPath = nil, ""
	}
}
