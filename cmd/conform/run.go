package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/galaxy-stack/conform/core/faults"
	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/hosts/hostcmd"
	"github.com/galaxy-stack/conform/internal/redact"
	"github.com/galaxy-stack/conform/internal/termsafe"
	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/galaxy-stack/conform/matrix/lab"
	"github.com/galaxy-stack/conform/matrix/oracle"
	"github.com/galaxy-stack/conform/matrix/runs"
)

var _ = register(def[runFlags]{
	Name:      "run",
	UsageLine: "conform run FIXTURE.json|SCENARIO.txtar|DIR... --host HOST [--transcript FILE] [--mutant NAME | --variant NAME] [--core-fault NAME] [--keep] [--json] [--task TEXT] [--timeout D] [--host-env NAME] [--forbid-containment] [--allow-uncontained-commands] [--max-fixture-size BYTES] [--max-fixture-files N] [--max-read-size BYTES] [--max-snapshot-file-size BYTES] [--json-report F] [--junit-report F] [--md-report F] [--html-report F] [--repro-dir DIR] [--repeat K | --resume-everywhere] | conform run --campaign DIR --host HOST [--keep] [--json] [--allow-uncontained-commands]",
	Short:     "run original lab fixtures or a campaign against a host",
	Long: `Run runs fixtures of the original lab's JSON format (schemaVersion 2, or 1)
against one host and checks each with the original oracle: status, error code,
tool sequence and results, files, allowed changes, checkpoints, trace and the
rest of the fixture's expected block, plus the checks that always run
(declared controls fired, persisted checkpoints pass integrity, every change of
a completed run is backed by host write evidence).

Each FIXTURE is a .json fixture, a .txtar scenario, or a directory, walked
recursively, whose .json and .txtar files all run in path order. Each runs
isolated: a fresh temporary workspace with the fixture's initial files and a
Git baseline commit, a fresh store directory and a fresh host process. --keep
keeps the workspace and prints its path.

A .txtar scenario holds scenario.json (an original fixture, as strict),
workspace/PATH files that seed the workspace (workspace/PATH.base64 for
binary content) and, as its comment, a testscript script of the harness's
own commands only (no exec, no other built-in: conform itself runs nothing
of an archive; what its model double asks the host to run is below):
  resume [on=paused|failed] [tamper] [fresh-host] [max=N]   before a run
  conform-run            run it; "! conform-run" expects the oracle to fail
  status S | error-code C|null | tools NAME... | effects PATH... |
  changes PATH... | file PATH [absent|equals T|line T|contains T] |
  replay-hash [HASH]     assertions on the last run ("!" negates)
A script without conform-run runs the scenario once first. An archive file
outside workspace/ other than scenario.json, a ".." or .git path, an unknown
command, bad JSON or an unknown field is exit 2, naming the file and the line
or field. 'conform import' writes scenarios from JSON fixtures.

A fixture the host cannot serve at all (a full_contract fixture on a host
without the optional tools) is not applicable: it prints N/A with the reason
and is counted apart from the failures, as certify counts its items; it does
not fail the run.

--json prints the fixtures' full reports. --json-report writes the result
document of kind "run" (reports/schema/result.schema.json: one item per
fixture or stage, with its status, reason and repro command), which
--junit-report, --md-report and --html-report render (see conform help
report).

With --campaign, the .json files of DIR are the stages of a campaign: they run
in name order on one shared workspace, each with its own host process and run
identity, and the campaign stops at the first stage that does not meet its
oracle. A stage that expects a failure and gets it passes.

HOST is a built-in host ("reference", "doubles") or a command line that starts a
host, as for certify; --host-env adds environment variables to the host's
allowlist. Secrets are redacted from every output, --transcript included, as
certify does (see conform help certify): a transcript with a secret redacted
no longer hashes to its replay hash. A fixture with runtime.toolProfile "full_contract" needs
a host that offers the nine optional tools (--host doubles does); on any other
host it fails as not applicable.

--mutant NAME serves a named fault of the reference host (with --host
reference), as certify --mutant does; --core-fault NAME switches on a named
fault of conform's own core runtime (conform selftest --list names them). A fixture path under fixtures/matrix/
that does not exist on disk is read from the matrix scenarios built into
conform, so the repro commands certify prints work anywhere.

A fixture file over --max-fixture-size (16 MiB unless set) is refused before
it is read, as is one that is not UTF-8 or that names a path under .git. So
is, when it loads, a fixture that declares more than --max-fixture-files
workspace files and entries (100000 unless set), or one whose workspace
cannot be arranged: a path over 1024 bytes or with a segment over 200, a
file that another path needs as its directory, an entry over a path made
before it, a write through a symlink the fixture declares, or a symlink to
.git. The error names the fixture, the JSON path and the workspace path.

` + capsHelp + `

The harness writes a fixture's files, entries and resume mutations only
inside its workspace: it follows no symbolic link on the way (a link in a
parent component, or .git, fails the fixture with a reason naming the path,
status arrange_failed, and the next fixture runs), and replaces a link at the
path itself, never its target. It reads an expected file through a link only
while the link stays inside the workspace; a link that leaves is reported
with its target string, and nothing behind it is read.

--forbid-containment asks the host to behave as if no containment backend
existed: the premise of fixtures that expect required command containment to
be unavailable, on a machine where a backend verifies.

Commands come from scenarios: a fixture's model double may call
run_command, validate_project (which runs the scripts the workspace
declares, such as package.json's), manage_session or manage_preview, and
the host then spawns a process on this machine with your rights. conform
trusts its own scenarios, the ones built into it: a file whose bytes are
exactly those of one (a checkout's unchanged fixtures/matrix/ file, or a
byte-identical copy anywhere), or a fixtures/matrix/ path that does not
exist on disk. Every other fixture, scenario and campaign stage is a
stranger's: its calls of those tools go to the host only when the host
reported an active, verified containment backend at initialize (the
reference host does where bubblewrap works, unless --forbid-containment)
or serves the tool with a double. Otherwise conform answers the call
itself with DENY_UNCONTAINED_COMMAND, the host never sees it, and the
fixture fails with an "uncontainedCommand" failure naming the call. With
--mutant conform believes no containment report and guards git_operation
calls too, as a mutant may run git unsafely; other git_operation calls
are not guarded: every git the reference host and conform run has hooks,
filters and the like switched off.

--allow-uncontained-commands lets a stranger's calls go to the host all
the same: conform prints an "allowance:" line when the run starts (on
standard error with --json) and one below each fixture for each call that
went to the host uncontained, and the result document's item carries the
same lines in its reason ("allowances" in --json); the repro commands
leave the flag out.

conform's own additions live under a fixture's "conform" key, as strict as
the rest of the format: "faults" is a list of fault-proxy rules applied
between the harness and the host (fail, close, delay, cancel, drop_ack,
corrupt_result, throw_after_commit, forge_effects, mismatch_id; the report
records every injected fault), and "forbidContainmentBackends": true does
what --forbid-containment does, for that fixture alone.

Time bounds: a tool call gets its own timeoutMs (120 s when it carries none)
plus a 60 s dispatch margin; each fixture (each campaign stage) 5 minutes,
after which it fails with "fixture timed out after 5m0s (the per-fixture
bound)"; the whole command --timeout, after which the fixture running fails
naming it and no other starts.

SIGINT or SIGTERM stops the command: no new fixture starts, the hosts are
stopped, the fixture that was running is reported as interrupted (never as a
failure), the finished reports are printed with "interrupted": true in the
JSON, and conform exits with 130 (SIGINT) or 143 (SIGTERM). A second signal
exits at once. Temporary workspaces are removed either way, unless --keep.

Every report carries the replay hash ("replayHash" in --json): the SHA-256 of
the JCS form of the run's normalized transcript (no paths, times, PIDs, host
name or host-opaque values), equal across isolated runs of a conformant host.
--transcript FILE writes the transcripts themselves (atomically, after the
reports). Reports also carry the checkpoint audits, the model requests and
model-context audit, the trace flushes and the command containment the host
reported. Every report and transcript path is checked before anything runs:
a regular file or a new path in a writable directory; anything else (a FIFO,
a device node, a symbolic link, a directory) is refused with exit 2 and never
replaced.

--repro-dir DIR writes, for every fixture that fails, a self-contained txtar
scenario DIR/NAME.txtar: the scenario itself (a JSON fixture as conform
import turns it into one), its script comment headed by the failure and the
command that runs it again, which becomes the failure's repro command in the
result document. Without the flag the repros go to repro/ beside the file
--json-report names, when it names one. The archive needs no checkout: conform
run reads everything from it. It is a file from outside conform, so a repro
of one of conform's own scenarios (whose commands run without containment)
names --allow-uncontained-commands in its command.

--repeat K runs each fixture K times (two or more), each time in fresh,
perturbed surroundings: the temporary directory the workspaces are made in
(another name and depth), TZ, the order of the host's environment
variables, and the order the fixtures run in (as given, reversed,
rotated); start times differ as the repetitions run one after another. It
prints one verdict a fixture: deterministic (the same status and replay
hash every time), nondeterministic (the same status, another hash: the
first divergent transcript event and a go-cmp diff of it) or flaky (the
status, or whether the oracle passed, varies), and exits 1 unless every
fixture is deterministic and passed every time. The two shipped scenarios
that mean nothing run alone (golden/README.md) are listed but not counted. It writes no reports or
transcripts, and takes no --campaign or --keep.

--resume-everywhere checks that each fixture (one that declares no controls
or resume policy of its own) resumes from every step: it runs it once
uninterrupted, then once per tool result with a pause there and a resume in
a fresh host process on the same store, and requires the resumed run to end
with the same status, tool calls and results, write evidence and final
workspace (its outcome hash: the pause adds a checkpoint and an execution
that the replay hash covers) and no tool/execute request sent twice for one
call. A pause during a model round is listed as not resumable, by the
runtime's rule that a pause aborts the round in flight. Exit 1 when a step
fails.

A failed assertion prints the fixture, the assertion and the expected and
observed values. Exit status: 0 every fixture (or stage) passed; 1 some failed;
2 the invocation is wrong: a malformed fixture (named with the file and the
JSON path of the offending field), a fixture whose run request the core
refuses, a host command that cannot be found or started; 130 or 143 a signal
stopped it.`,
	Interspersed: true,
	Flags: func(fs *flag.FlagSet) *runFlags {
		f := &runFlags{hostFlags: addHostFlags(fs)}
		fs.StringVar(&f.campaign, "campaign", "", "run the stages of the campaign in `DIR` on one shared workspace")
		fs.BoolVar(&f.keep, "keep", false, "keep the workspaces and print their paths")
		fs.BoolVar(&f.asJSON, "json", false, "print the reports as JSON on standard output and nothing else")
		fs.StringVar(&f.task, "task", "", "replace the task of a single fixture (the run ID does not change)")
		fs.BoolVar(&f.forbid, "forbid-containment", false, "ask the host to behave as if no containment backend existed")
		fs.BoolVar(&f.uncontained, strings.TrimPrefix(lab.AllowUncontainedFlag, "--"), false,
			"let scenario files from outside conform run commands on this machine without verified containment")
		fs.Int64Var(&f.maxSize, "max-fixture-size", fixture.DefaultMaxFileSize, "refuse fixture files larger than `BYTES`")
		f.caps = addCapFlags(fs)
		fs.IntVar(&f.maxFiles, "max-fixture-files", fixture.DefaultMaxFiles, "refuse fixtures that declare more than `N` workspace files and entries")
		f.timeout = addTimeoutFlag(fs)
		f.env = addHostEnvFlag(fs)
		f.reports = addReportFlags(fs, "the result document")
		fs.StringVar(&f.reproDir, "repro-dir", "", "write a self-contained txtar repro of every failing fixture into `DIR` (default: repro/ beside --json-report)")
		fs.BoolVar(&f.resumeAll, "resume-everywhere", false, "pause each fixture after every tool result in turn, resume it in a fresh host process, and check the outcome")
		fs.IntVar(&f.repeat, "repeat", 1, "run each fixture `K` times in perturbed surroundings and say whether it is deterministic")
		fs.StringVar(&f.transcript, "transcript", "", "write the normalized transcript of each run to `FILE` (one object, or an array for several fixtures)")
		return f
	},
	Run: runRun,
})

// runFlags are the flags of conform run.
type runFlags struct {
	*hostFlags
	campaign, task, transcript string
	reproDir                   string
	keep, asJSON, forbid       bool
	resumeAll                  bool
	uncontained                bool
	maxSize                    int64
	caps                       *capFlags
	maxFiles                   int
	repeat                     int
	timeout                    *time.Duration
	env                        *hostEnv
	reports                    *reportFlags
}

// runRun runs conform run.
func runRun(f *runFlags, paths []string, out streams) error {
	if f.maxSize <= 0 {
		return usagef("run: --max-fixture-size must be a positive number of bytes")
	}
	fixture.MaxFileSize = f.maxSize
	if err := f.caps.apply("run"); err != nil {
		return err
	}
	if f.maxFiles <= 0 {
		return usagef("run: --max-fixture-files must be a positive number")
	}
	fixture.MaxFiles = f.maxFiles
	if f.host == "" {
		return usagef("run: --host is required (try --host reference)")
	}
	argv, err := builtin.Argv(f.host, f.mutant, f.variant)
	if err != nil {
		return usagef("run: %v", err)
	}
	if f.coreFault != "" {
		undo, err := faults.Enable(f.coreFault)
		if err != nil {
			return usagef("run: --core-fault %q: %v (see `conform selftest --list`)", f.coreFault, err)
		}
		defer undo()
	}
	if err := hostcmd.Check(argv); err != nil {
		return usagef("host command %q cannot be started: %v", f.host, err)
	}
	if f.campaign != "" {
		if len(paths) > 0 {
			return usagef("run: --campaign takes no fixture arguments, got %q", paths)
		}
		if f.task != "" {
			return usagef("run: --task applies to a single fixture, not to a campaign")
		}
	} else if len(paths) == 0 {
		return usagef("run: no fixture given\nusage: conform run FIXTURE.json... --host HOST")
	}
	if err := f.reports.check("run", reportPath{"--transcript", f.transcript}); err != nil {
		return err
	}
	if err := f.checkRepeat(); err != nil {
		return err
	}
	reproDir, err := f.reproDirectory()
	if err != nil {
		return err
	}
	f.env.redactSecrets()
	// With --keep the workspaces outlive the command, so they are
	// made where the user's TMPDIR says.
	j, err := startJob(*f.timeout, !f.keep, out.stderr)
	if err != nil {
		return err
	}
	defer j.close()
	if f.uncontained {
		// Standard output is the JSON alone with --json.
		w := out.stdout
		if f.asJSON {
			w = out.stderr
		}
		fmt.Fprintf(w, "allowance: %s: %s\n", lab.AllowUncontainedFlag, uncontainedNote)
	}
	cfg := runs.Config{
		Host: f.host, Mutant: f.mutant, CoreFault: f.coreFault, Argv: argv, HostEnv: *f.env,
		Paths: paths, Campaign: f.campaign, Task: f.task,
		ForbidContainment: f.forbid, AllowUncontained: f.uncontained, Keep: f.keep,
		Grace: interruptGrace, ReproDir: reproDir,
	}
	if f.repeat > 1 {
		return runRepeat(j, cfg, f, out)
	}
	if f.resumeAll {
		return runResumeEverywhere(j, cfg, f, out)
	}
	if !f.asJSON {
		cfg.Finished = func(rep *lab.Report) { printReport(out.stdout, "", rep) }
	}
	res, err := runs.Run(j.ctx, cfg)
	if err != nil {
		return loadError(err)
	}
	if f.campaign != "" {
		return printCampaign(res, f, out.stdout)
	}
	printRepros(res, f.asJSON, out)
	return printFixtures(res, f, out.stdout)
}

// uncontainedNote is what --allow-uncontained-commands allows, printed
// when it is given.
const uncontainedNote = "the commands of scenario files from outside conform run on this machine even where the host reports no verified containment; each such call is listed below its fixture and in the result document"

// loadError maps a fixture that cannot be loaded to an invocation error.
func loadError(err error) error {
	var fe *fixture.Error
	if errors.As(err, &fe) {
		return usagef("invalid fixture: %v", fe)
	}
	return err
}

// printFixtures writes the reports and transcripts of a run over
// fixtures and prints its outcome.
func printFixtures(out *runs.Result, f *runFlags, stdout io.Writer) error {
	res, stopped := out.Fixtures, out.Stopped
	if stopped != nil && res.InterruptedFixture != nil && !f.asJSON {
		fx := res.InterruptedFixture
		fmt.Fprintf(stdout, "INTR  %s  (%s)  %s before it finished\n", termsafe.Line(fx.Fixture), termsafe.Line(fx.File), stopped)
	}
	// The reports first: a transcript that cannot be written loses no
	// result.
	err := f.reports.write(out.Document)
	if f.transcript != "" {
		if terr := writeTranscripts(f.transcript, out.Transcripts); terr != nil {
			err = errors.Join(err, usagef("run: --transcript: %v", terr))
		}
	}
	if err != nil {
		return err
	}
	if f.asJSON {
		if err := writeJSON(stdout, res); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(stdout, "\n%d passed, %d failed", res.Passed, res.Failed)
		if res.NotApplicable > 0 {
			fmt.Fprintf(stdout, ", %d not applicable", res.NotApplicable)
		}
		if res.NotRun > 0 {
			fmt.Fprintf(stdout, ", %d not run", res.NotRun)
		}
		if stopped != nil {
			fmt.Fprintf(stdout, "; %s", stopped)
		}
		fmt.Fprintln(stdout)
	}
	switch {
	case stopped != nil:
		return stopped
	case out.TimedOut != nil:
		return out.TimedOut
	case res.Failed > 0:
		return errFailed
	}
	return nil
}

// printCampaign writes the reports of a campaign and prints its outcome.
func printCampaign(out *runs.Result, f *runFlags, stdout io.Writer) error {
	cr, stopped, timedOut, cut := out.Campaign, out.Stopped, out.TimedOut, out.Cut
	rep := cr.CampaignReport
	if err := f.reports.write(out.Document); err != nil {
		return err
	}
	if f.asJSON {
		if err := writeJSON(stdout, cr); err != nil {
			return err
		}
	} else {
		for _, st := range rep.Stages {
			printReport(stdout, st.Stage, st.Report)
		}
		switch {
		case stopped != nil && cut != "":
			fmt.Fprintf(stdout, "INTR  %s  %s before it finished\n", termsafe.Line(cut), stopped)
		case timedOut != nil && cut != "":
			fmt.Fprintf(stdout, "FAIL  %s  %s\n", termsafe.Line(cut), timedOut)
		}
		if rep.Workspace != "" {
			fmt.Fprintf(stdout, "workspace: %s\n", termsafe.Line(rep.Workspace))
		}
		fmt.Fprintf(stdout, "\ncampaign %s: %d of %d stages ran", termsafe.Line(rep.Path), rep.CompletedStages, len(rep.PlannedStages))
		switch {
		case stopped != nil:
			fmt.Fprintf(stdout, "; %s\n", stopped)
		case timedOut != nil:
			fmt.Fprintf(stdout, "; %s\n", timedOut)
		case rep.Passed:
			fmt.Fprintln(stdout, ", all passed")
		default:
			fmt.Fprintln(stdout, ", stopped at the first failing stage")
		}
	}
	switch {
	case stopped != nil:
		return stopped
	case timedOut != nil:
		return timedOut
	case !rep.Passed:
		return errFailed
	}
	return nil
}

// printReport prints one fixture's verdict: a PASS or FAIL line naming the
// fixture (or stage) and its file, then each failed assertion with the
// expected and the observed value. Whatever came from the fixture or the
// host is printed through termsafe: Line for what must stay on its line,
// String for messages.
func printReport(w io.Writer, stage string, rep *lab.Report) {
	word := "PASS"
	switch {
	case rep.NotApplicable != "":
		word = "N/A "
	case !rep.Passed:
		word = "FAIL"
	}
	name := rep.Fixture
	if stage != "" {
		name = stage
	}
	fmt.Fprintf(w, "%s  %s  (%s)  status %s", word, termsafe.Line(name), termsafe.Line(rep.File), termsafe.Line(rep.Status))
	if rep.ErrorCode != nil {
		fmt.Fprintf(w, " %s", termsafe.Line(*rep.ErrorCode))
	}
	if rep.ErrorMessage != "" && !rep.Passed {
		fmt.Fprintf(w, " (%s)", termsafe.String(rep.ErrorMessage))
	}
	fmt.Fprintln(w)
	if rep.NotApplicable != "" {
		fmt.Fprintf(w, "      not applicable: %s\n", termsafe.String(rep.NotApplicable))
	}
	for _, f := range rep.Failures {
		printFailure(w, f)
	}
	if !rep.Passed {
		// What conform had to do to the host: the calls a run's deadline
		// left unanswered are named here, not in the run's own error.
		for _, inc := range rep.Incidents {
			fmt.Fprintf(w, "      incident: %s\n", inc)
		}
	}
	if len(rep.Doubles) > 0 && !rep.Passed {
		fmt.Fprintf(w, "      doubles: %s\n", termsafe.Line(fmt.Sprint(rep.Doubles)))
	}
	for _, a := range rep.Allowances {
		fmt.Fprintf(w, "      allowance: %s\n", a)
	}
	if rep.Workspace != "" {
		fmt.Fprintf(w, "      workspace: %s\n", termsafe.Line(rep.Workspace))
	}
}

func printFailure(w io.Writer, f oracle.Failure) {
	fmt.Fprintf(w, "      %s: %s\n", termsafe.Line(f.Assertion), termsafe.String(f.Message))
	fmt.Fprintf(w, "        expected: %s\n", termsafe.String(f.Expected))
	fmt.Fprintf(w, "        actual:   %s\n", termsafe.String(f.Actual))
}

func writeJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", termsafe.JSON(redact.JSON(b)))
	return err
}

// writeJSONOr writes v to w as writeJSON does when asJSON (--json), and
// otherwise runs text, which writes the text form.
func writeJSONOr(w io.Writer, asJSON bool, v any, text func()) error {
	if asJSON {
		return writeJSON(w, v)
	}
	text()
	return nil
}
