package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/galaxy-stack/conform/internal/termsafe"
	"github.com/galaxy-stack/conform/matrix"
	"github.com/galaxy-stack/conform/matrix/expect"
	"github.com/galaxy-stack/conform/matrix/progress"
	"github.com/galaxy-stack/conform/matrix/session"
	"github.com/galaxy-stack/conform/reports"
	"golang.org/x/term"
)

var _ = register(def[certifyFlags]{
	Name:      "certify",
	UsageLine: "conform certify --host HOST [--mutant NAME | --variant NAME] [--core-fault NAME] [--only 1,13] [--area AREA] [--skip 3,R2] [--expect FILE] [--strict] [--certificate FILE] [--shard i/n] [--parallel N] [--durations FILE] [--timeout D] [--host-env NAME] [--max-read-size BYTES] [--max-snapshot-file-size BYTES] [--json] [--json-report F] [--junit-report F] [--md-report F] [--html-report F] [--repro-dir DIR]",
	Short:     "run the host-conformance matrix against a host",
	Long: `Certify runs the items of the host-conformance matrix against one host and
prints one line per item as it finishes ("✓ 13 <title> 0.21s"; ✗ failed,
○ not applicable, – skipped), with a running count on a terminal; colour
only on a terminal, and never with NO_COLOR set. Each failure gives its
reason and a command that repeats just that item. An item passes on the
scenarios it ran: each scenario that does not apply to the host (a tool it
does not back, a capability its initialize declares false) is listed under
the item as "not applicable: <scenario>: <reason>" and counted in the
summary line; an item none of whose scenarios applies is not applicable.
A check a scenario could not make (the host's store, when it has none) is
listed as "not checked: ...". --json prints the result
document on standard output and nothing else (the lines go to standard
error).

The result document (--json-report) follows the JSON Schema
reports/schema/result.schema.json; --junit-report, --md-report and
--html-report render it as JUnit XML, Markdown for $GITHUB_STEP_SUMMARY and a
self-contained HTML page (see conform help report). Each report path is
checked before the run: a regular file or a new path in a writable
directory; anything else (a FIFO, a device node, a symbolic link) is refused
with exit 2 and never replaced.

HOST is a built-in host ("reference") or a command line that starts a host
speaking the host protocol on its standard input and output, for example
'./my-host' or 'node host.mjs --stdio'. The command line is split into words
as a POSIX shell would, but no shell runs it. A relative path in it is taken
from the directory conform runs in: the executable, when it is written with a
slash, and the script of an interpreter (node, python3, sh, ...).

Every session gets a fresh workspace and store directory and a fresh host
process. A host that cannot be found, is a directory or cannot be executed is
an invocation error (exit 2); a host that starts and then crashes, hangs or
breaks the protocol fails the item it was serving, and the run goes on
(exit 1). A host that leaves initialize unanswered twice in a row (no
answer within 30 s, or it exits first) is not started again: the items left
are skipped with that reason, and conform exits 1. The host's environment is
the harness's allowlist plus the variables --host-env names; conform's cache
directory (CONFORM_CACHE_DIR) goes to its built-in hosts only.

Secrets are redacted from everything conform prints and writes (the
progress lines, --json, every report): the values of the --host-env
variables and of conform's own variables whose names look secret (…TOKEN,
…SECRET…, …PASSWORD…, …KEY…, AWS_…; values under 6 bytes excepted) become
[REDACTED:$NAME], and secrets of known shapes (GitHub, GitLab, AWS, Stripe,
Google, Slack, npm, PyPI tokens and keys, JWTs, private keys, passwords in
URLs, secret-named assignments, ...) become [REDACTED:<kind>].

Time bounds: a tool call gets its own timeoutMs (120 s when it carries none)
plus a 60 s dispatch margin before the host counts as hung; any other call
30 s; each spec of an item 5 minutes; the whole run --timeout. The bound that
ends a session is named in the item's reason, for example "run timed out
after 10m (--timeout)"; items after the end of the run are skipped. When a
run's own deadline ends it, the calls the host had not answered are named
as incidents (method, request id, tool, how long they were outstanding).

` + capsHelp + `

SIGINT or SIGTERM stops the run: no new item starts, the hosts are stopped,
the item that was running is skipped as interrupted (never failed), the
finished results are printed and written with "interrupted": true, and
conform exits with 130 (SIGINT) or 143 (SIGTERM). A second signal exits at
once.

` + certifyReproHelp + `

` + scaleHelp + `

` + gateHelp + `

` + certHelp,
	Flags: func(fs *flag.FlagSet) *certifyFlags {
		f := &certifyFlags{hostFlags: addHostFlags(fs)}
		fs.StringVar(&f.only, "only", "", "comma-separated item IDs to run (default: all)")
		fs.StringVar(&f.area, "area", "", "run only the items of this area")
		fs.BoolVar(&f.asJSON, "json", false, "print the result document on standard output and nothing else")
		f.reports = addReportFlags(fs, "the result document")
		f.timeout = addTimeoutFlag(fs)
		f.env = addHostEnvFlag(fs)
		f.caps = addCapFlags(fs)
		f.gate = addGateFlags(fs)
		f.cert = addCertFlag(fs)
		f.scale = addScaleFlags(fs)
		f.reproDir = addCertifyReproFlag(fs)
		return f
	},
	NoArgs: true,
	Run:    runCertify,
})

// certifyFlags are the flags of conform certify.
type certifyFlags struct {
	*hostFlags
	only, area string
	asJSON     bool
	reports    *reportFlags
	timeout    *time.Duration
	env        *hostEnv
	caps       *capFlags
	gate       *gateFlags
	cert       *certFlag
	scale      *scaleFlags
	reproDir   *string
	// repro is the directory the repros go to, "" for none: --repro-dir
	// resolved, and what child certifications are given.
	repro string
}

func runCertify(f *certifyFlags, _ []string, out streams) error {
	if f.host == "" {
		return usagef("certify: --host is required (try --host reference)")
	}
	if err := f.caps.apply("certify"); err != nil {
		return err
	}
	ids, err := parseIDs(f.only)
	if err != nil {
		return err
	}
	skip, expected, err := f.gate.load()
	if err != nil {
		return err
	}
	if err := f.cert.check(f.reports, f.gate); err != nil {
		return err
	}
	var extra []reportPath
	if f.cert.path != "" {
		extra = append(extra, reportPath{"--certificate", f.cert.path})
	}
	if err := f.reports.check("certify", extra...); err != nil {
		return err
	}
	if f.repro, err = certifyReproDir(*f.reproDir, *f.reports.json); err != nil {
		return err
	}
	f.env.redactSecrets()
	progressOut := out.stdout
	if f.asJSON {
		progressOut = out.stderr
	}
	cfg := matrix.Config{
		Host: f.host, Mutant: f.mutant, Variant: f.variant, CoreFault: f.coreFault, Only: ids, Area: f.area, Skip: skip, HostEnv: *f.env,
		Out: progressOut, Color: colorOK(progressOut), TTY: isTerminal(progressOut),
		Repro: certifyRepro(f.repro),
	}
	p, err := f.scale.plan(cfg)
	if err != nil {
		return err
	}
	j, err := startJob(*f.timeout, true, out.stderr)
	if err != nil {
		return err
	}
	defer j.close()
	doc, err := certifyItems(j.ctx, f, cfg, p, progressOut)
	if err != nil {
		return err
	}
	stopped := j.interrupted()
	if stopped != nil {
		doc.MarkInterrupted()
	}
	problems := f.gate.apply(expected, doc)
	reports.Redact(doc)
	if err := f.reports.write(doc); err != nil {
		return err
	}
	result := certifyResult(doc, stopped, j.timedOut(), problems)
	if err := f.cert.write(f.reports, f.gate, doc, result); err != nil {
		return err
	}
	if f.asJSON {
		b, err := json.MarshalIndent(doc, "", "  ")
		if err != nil {
			return err
		}
		fmt.Fprintf(out.stdout, "%s\n", termsafe.JSON(b))
		printProblems(out.stderr, problems)
	} else {
		s := doc.Summary
		fmt.Fprintf(out.stdout, "\n%d passed, %d failed", s.Passed, s.Failed)
		if s.ExpectedFailures > 0 {
			fmt.Fprintf(out.stdout, " (%d expected)", s.ExpectedFailures)
		}
		fmt.Fprintf(out.stdout, ", %d not applicable, %d skipped", s.NotApplicable, s.Skipped)
		if s.NotApplicableScenarios > 0 {
			fmt.Fprintf(out.stdout, " (%d scenarios not applicable)", s.NotApplicableScenarios)
		}
		if stopped != nil {
			fmt.Fprintf(out.stdout, "; %s", stopped)
		}
		fmt.Fprintln(out.stdout)
		printNotRun(out.stdout, doc)
		progress.Recap(out.stdout, doc)
		printProblems(out.stdout, problems)
		printWritten(out.stdout, f.reports, f.cert.path)
	}
	return result
}

// certifyItems runs the items cfg selects, as p splits them: in this
// process, all of them or one shard's, or in child processes merged into
// one document. A document of a part lists the planned items a serial run
// lists, so that merged parts equal a serial run.
func certifyItems(ctx context.Context, f *certifyFlags, cfg matrix.Config, p *plan, progress io.Writer) (*reports.Document, error) {
	var doc *reports.Document
	var err error
	switch {
	case p == nil:
		return matrix.Run(ctx, cfg)
	case len(p.parts) > 1:
		doc, err = runParallel(ctx, f, p, progress)
	default:
		part := cfg
		part.Only, part.Skip = withSkips(p.only, p.skip), p.skip
		doc, err = matrix.Run(ctx, part)
	}
	if err != nil {
		return nil, err
	}
	doc.Planned = matrix.Planned(cfg)
	doc.Tally()
	return doc, nil
}

// certifyResult is the error certify ends with: nil when the run passed.
func certifyResult(doc *reports.Document, stopped *interruptedError, timedOut error, problems []expect.Problem) error {
	switch {
	case stopped != nil:
		return stopped
	case timedOut != nil:
		return timedOut
	case doc.Summary.Unexpected() > 0 || deadHostSkips(doc) > 0 || len(problems) > 0:
		// Items skipped because the host is dead were not certified.
		return errFailed
	}
	return nil
}

// deadHostSkips counts the items skipped because the host left initialize
// unanswered twice in a row (session.DeadHostReason).
func deadHostSkips(doc *reports.Document) int {
	n := 0
	for _, it := range doc.Items {
		if it.Status == reports.Skipped && strings.Contains(it.Reason, session.DeadHostReason) {
			n++
		}
	}
	return n
}

func parseIDs(s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var ids []int
	for _, f := range strings.Split(s, ",") {
		id, err := matrix.ParseRef(f)
		if err != nil {
			return nil, usagef("--only %q: want comma-separated item numbers or references such as 1,13,R1", s)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// printNotRun says how many items did not run: those a signal kept from
// starting, those a dead host kept from starting, and those the matrix
// plans that this version cannot run yet.
func printNotRun(w io.Writer, doc *reports.Document) {
	notRun := 0
	for _, it := range doc.Items {
		if it.Reason == reports.NotRunReason {
			notRun++
		}
	}
	if notRun > 0 {
		fmt.Fprintf(w, "%d selected items did not run: the run was interrupted\n", notRun)
	}
	if n := deadHostSkips(doc); n > 0 {
		fmt.Fprintf(w, "%d selected items did not run: %s, so conform exits 1\n", n, session.DeadHostReason)
	}
	if n := len(doc.Planned); n > 0 {
		fmt.Fprintf(w, "%d matrix items are planned and not yet runnable in this version (see `conform matrix`)\n", n)
	}
}

// colorOK reports whether w is a terminal that wants colour.
func colorOK(w io.Writer) bool {
	return os.Getenv("NO_COLOR") == "" && isTerminal(w)
}

// isTerminal reports whether w is a terminal, looking through the writers
// that wrap it (main's redact.Writer) to the file beneath. A character
// device that is not a terminal, such as /dev/null, is not one.
func isTerminal(w io.Writer) bool {
	for u, ok := w.(interface{ Unwrap() io.Writer }); ok; u, ok = w.(interface{ Unwrap() io.Writer }) {
		w = u.Unwrap()
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
