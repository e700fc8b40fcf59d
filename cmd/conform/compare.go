package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/hosts/hostcmd"
	"github.com/galaxy-stack/conform/internal/redact"
	"github.com/galaxy-stack/conform/internal/termsafe"
	"github.com/galaxy-stack/conform/matrix/compare"
	"github.com/galaxy-stack/conform/reports"
)

var _ = register(def[compareFlags]{
	Name:      "compare",
	UsageLine: "conform compare --host A --host B [--host C...] [SCENARIO...] [--json] [--timeout D] [--host-env NAME] [--allow-uncontained-commands] [--repro-dir DIR] | conform compare REPORT.json REPORT.json... [--json] [--max-document-size BYTES]",
	Short:     "compare hosts' replay hashes and show where their runs first differ",
	Long: `Compare runs each scenario on every host and compares the normalized
transcripts (the records whose SHA-256 is the replay hash, see conform help
run). Each SCENARIO is a fixture, a txtar scenario or a directory, as for
conform run; without one, the shipped scenario library runs (the scenarios
of fixtures/ that have a golden transcript, from the built-in copy of the
matrix scenarios outside a checkout). The hosts run at once, each its
scenarios one after the other.

It prints one line per scenario: a short replay hash per host, whether they
are equal, and which of the tool sequence, the effects (each result's ok,
error code, trust and evidence other than writes), the evidence (write
evidence and checkpoint audits), the final workspace (the harness's own
snapshot) or only the rest of the run differ. For every host that differs
from the baseline (the first host of the strict majority of equal hashes,
or the first host) it prints the first divergent event of the transcript,
the event of each host, a go-cmp diff of it, and the contract sentence
that governs the field that differs, or "host's choice — normalization
missing" when none does (a conform bug: the transcript keeps something the
contract leaves to the host). With three or more hosts the hosts outside
the majority are named as outliers.

The replay hash is shared by conformant hosts: the transcript leaves out
or maps to one form what the contract leaves to the host (free text, JSON
member order, the host's limits, truncation style, opaque identifiers,
the order of a mutation's checks; the list and the contract sentences are
in the documentation of package matrix/replay). The hashes compare also
masks the workspace files a shipped scenario makes machine-specific on
purpose (golden/README.md). Hosts of different tool profiles (the doubles
host offers the nine optional tools) are compared on the tools all of them
offer: the others are removed from every model request first, and the
output says which. A scenario a host cannot serve at all is listed as
not applicable for it and compared among the others; one that applies to
a single host is listed as not compared.

HOST is a built-in host ("reference", "doubles") or a command line, as for
certify. A built-in host may carry its --mutant or --variant inside the
value: --host 'reference --variant reworded', or the same as a host command
line, --host 'conform host serve reference --variant reworded'.

Given result documents (conform run or certify --json-report files, or a
report merge) and no --host, compare compares the replay hashes of the
items they share, by scenario file. A result document holds the hashes,
not the transcripts, so compare says which scenarios differ, not where.

--repro-dir DIR writes, for every scenario the hosts differ on, a
self-contained txtar repro DIR/NAME.txtar: the scenario, headed by where
each host first differs and the conform compare command that shows it
again without a checkout.

--json prints the comparison as JSON. Exit status: 0 every scenario
agrees; 1 some scenario differs; 2 the invocation is wrong (fewer than two
hosts or documents, a host that cannot be started, a malformed scenario or
document).`,
	Interspersed: true,
	Flags: func(fs *flag.FlagSet) *compareFlags {
		f := &compareFlags{}
		fs.Var(&f.hosts, "host", "a `HOST` to compare (repeatable, two or more): a built-in name, with its --mutant or --variant, or a command line")
		fs.BoolVar(&f.asJSON, "json", false, "print the comparison as JSON on standard output and nothing else")
		fs.BoolVar(&f.uncontained, "allow-uncontained-commands", false,
			"let scenario files from outside conform run commands on this machine without verified containment")
		fs.StringVar(&f.reproDir, "repro-dir", "", "write a self-contained txtar repro of every scenario the hosts differ on into `DIR`")
		fs.Int64Var(&f.maxDoc, "max-document-size", reports.DefaultMaxDocumentSize, "refuse result documents larger than `BYTES`")
		f.timeout = addTimeoutFlag(fs)
		f.env = addHostEnvFlag(fs)
		return f
	},
	Run: runCompare,
})

// compareFlags are the flags of conform compare.
type compareFlags struct {
	hosts       hostList
	asJSON      bool
	uncontained bool
	maxDoc      int64
	reproDir    string
	timeout     *time.Duration
	env         *hostEnv
}

// hostList is the value of the repeatable --host flag.
type hostList []string

func (h *hostList) String() string { return strings.Join(*h, ", ") }

func (h *hostList) Set(v string) error {
	if strings.TrimSpace(v) == "" {
		return errors.New("empty host")
	}
	*h = append(*h, v)
	return nil
}

// runCompare runs conform compare.
func runCompare(f *compareFlags, args []string, out streams) error {
	f.env.redactSecrets()
	var res *compare.Result
	if len(f.hosts) == 0 {
		r, err := compareDocuments(f, args)
		if err != nil {
			return err
		}
		res = r
	} else {
		r, err := compareHosts(f, args, out)
		if err != nil {
			return err
		}
		res = r
	}
	if err := writeJSONOr(out.stdout, f.asJSON, res, func() { printComparison(out.stdout, res) }); err != nil {
		return err
	}
	if res.Mismatches > 0 {
		return errFailed
	}
	return nil
}

func compareHosts(f *compareFlags, args []string, out streams) (*compare.Result, error) {
	if len(f.hosts) < 2 {
		return nil, usagef("compare: want two --host flags or more, got %d", len(f.hosts))
	}
	if err := checkReproDir("compare", f.reproDir); f.reproDir != "" && err != nil {
		return nil, err
	}
	var hosts []compare.Host
	for _, v := range f.hosts {
		h, err := compareHost(v)
		if err != nil {
			return nil, usagef("compare: --host %q: %v", v, err)
		}
		hosts = append(hosts, h)
	}
	j, err := startJob(*f.timeout, true, out.stderr)
	if err != nil {
		return nil, err
	}
	defer j.close()
	if f.uncontained {
		fmt.Fprintf(out.stderr, "allowance: --allow-uncontained-commands: %s\n", uncontainedNote)
	}
	var res *compare.Result
	j.await(func() {
		res, err = compare.Run(j.ctx, compare.Config{Hosts: hosts, Paths: args, HostEnv: *f.env, AllowUncontained: f.uncontained, ReproDir: f.reproDir})
	})
	if stopped := j.interrupted(); stopped != nil {
		return nil, stopped
	}
	if te := j.timedOut(); te != nil {
		return nil, te
	}
	if err != nil {
		return nil, loadError(err)
	}
	return res, nil
}

// compareHost turns one --host value into the host to run: a built-in name
// with its --mutant or --variant ("reference --variant reworded", or the
// command line "conform host serve reference --variant reworded"), or any
// other command line.
func compareHost(v string) (compare.Host, error) {
	words, err := builtin.Words(v)
	if err != nil {
		return compare.Host{}, err
	}
	if len(words) > 3 && words[0] == "conform" && words[1] == "host" && words[2] == "serve" {
		words = words[3:]
	}
	if builtin.IsBuiltin(words[0]) {
		name, mutant, variant, err := builtin.ParseServeVariant(words)
		if err != nil {
			return compare.Host{}, err
		}
		argv, err := builtin.Argv(name, mutant, variant)
		if err != nil {
			return compare.Host{}, err
		}
		return compare.Host{Name: v, Host: name, Mutant: mutant, Argv: argv}, nil
	}
	argv, err := builtin.Argv(v, "", "")
	if err != nil {
		return compare.Host{}, err
	}
	if err := hostcmd.Check(argv); err != nil {
		return compare.Host{}, fmt.Errorf("cannot be started: %v", err)
	}
	return compare.Host{Name: v, Host: v, Argv: argv}, nil
}

func compareDocuments(f *compareFlags, files []string) (*compare.Result, error) {
	if f.reproDir != "" {
		return nil, usagef("compare: --repro-dir needs --host: result documents hold no scenarios")
	}
	if f.maxDoc <= 0 {
		return nil, usagef("compare: --max-document-size must be a positive number of bytes")
	}
	var names []string
	var docs []*reports.Document
	for _, p := range files {
		ds, err := reports.ReadFile(p, f.maxDoc)
		if err != nil {
			return nil, usagef("compare: %v", err)
		}
		for _, d := range ds {
			names = append(names, p+": "+reports.HostLabel(d))
			docs = append(docs, d)
		}
	}
	if len(docs) < 2 {
		return nil, usagef("compare: give two --host flags or more, or two result documents or more (got %d)", len(docs))
	}
	res, err := compare.Documents(names, docs)
	if err != nil {
		return nil, usagef("%v", err)
	}
	return res, nil
}

// short is the first 12 hex digits of a replay hash.
func short(h string) string {
	h = strings.TrimPrefix(h, "sha256:")
	if len(h) > 12 {
		h = h[:12]
	}
	if h == "" {
		return "-"
	}
	return h
}

// printComparison prints the table, then every mismatch.
func printComparison(w io.Writer, res *compare.Result) {
	safe := func(s string) string { return termsafe.Line(redact.String(s)) }
	for i, h := range res.Hosts {
		fmt.Fprintf(w, "host %c: %s\n", 'A'+i, safe(h))
	}
	if p := res.Profile; p != nil {
		fmt.Fprintf(w, "tool profiles differ: compared on the %d tools every host offers", len(p.Common))
		for _, h := range res.Hosts {
			if extra := p.Extra[h]; len(extra) > 0 {
				fmt.Fprintf(w, "; %s also offers %s", safe(h), safe(strings.Join(extra, ", ")))
			}
		}
		fmt.Fprintln(w, " (left out of its model requests)")
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprint(tw, "scenario")
	for i := range res.Hosts {
		fmt.Fprintf(tw, "\t%c", 'A'+i)
	}
	fmt.Fprintln(tw, "\tequal\tdiffers in")
	for _, s := range res.Scenarios {
		fmt.Fprint(tw, safe(s.File))
		for i, h := range s.Hashes {
			cell := short(h)
			if h == "" {
				cell = s.Statuses[i]
			}
			fmt.Fprintf(tw, "\t%s", safe(cell))
		}
		eq, differ := "yes", strings.Join(s.Differ, ", ")
		switch {
		case s.Compared < 2:
			eq, differ = "n/a", "not compared: applies to one host only"
			if s.Compared == 0 {
				differ = "not compared: applies to no host"
			}
		case !s.Equal && len(s.Volatile) > 0:
			eq, differ = "n/a", "machine-specific on purpose: "+strings.Join(s.Volatile, ", ")
		case !s.Equal:
			eq = "NO"
		}
		fmt.Fprintf(tw, "\t%s\t%s\n", eq, safe(differ))
	}
	tw.Flush()
	for _, s := range res.Scenarios {
		if s.Equal || len(s.Volatile) > 0 {
			continue
		}
		fmt.Fprintf(w, "\nMISMATCH  %s\n", safe(s.File))
		switch {
		case len(s.Outliers) > 0:
			fmt.Fprintf(w, "  outlier: %s\n", safe(strings.Join(s.Outliers, ", ")))
		case s.NoMajority:
			fmt.Fprintln(w, "  no majority: no hash is shared by more than half of the hosts")
		}
		for _, m := range s.Mismatches {
			fmt.Fprintf(w, "  %s differs from %s first at %s", safe(m.Hosts[1]), safe(m.Hosts[0]), m.Where)
			if m.Field != "" {
				fmt.Fprintf(w, ", field %s", safe(m.Field))
			}
			fmt.Fprintln(w)
			fmt.Fprintf(w, "    %s: %s\n", safe(m.Hosts[0]), safe(string(m.Values[0])))
			fmt.Fprintf(w, "    %s: %s\n", safe(m.Hosts[1]), safe(string(m.Values[1])))
			fmt.Fprintf(w, "    diff (- %s, + %s):\n", safe(m.Hosts[0]), safe(m.Hosts[1]))
			for _, line := range strings.Split(strings.TrimRight(m.Diff, "\n"), "\n") {
				fmt.Fprintf(w, "      %s\n", termsafe.String(redact.String(line)))
			}
			if m.ResultEvent > 0 {
				fmt.Fprintf(w, "    first divergent tool result: event %d, field %s\n", m.ResultEvent, safe(orWhole(m.ResultField)))
			}
			fmt.Fprintf(w, "    contract: %s\n", safe(m.Contract))
		}
		if s.Repro != "" {
			fmt.Fprintf(w, "  repro: %s\n", safe(s.Repro))
		}
	}
	equal, volatile := 0, 0
	for _, s := range res.Scenarios {
		switch {
		case s.Equal && s.Compared >= 2:
			equal++
		case !s.Equal && len(s.Volatile) > 0:
			volatile++
		}
	}
	fmt.Fprintf(w, "\n%d scenarios: %d equal, %d differ", len(res.Scenarios), equal, res.Mismatches)
	if res.NotCompared > 0 {
		fmt.Fprintf(w, ", %d not compared (they apply to one host only)", res.NotCompared)
	}
	if volatile > 0 {
		fmt.Fprintf(w, ", %d differ in machine-specific content only", volatile)
	}
	fmt.Fprintln(w)
	if res.Note != "" {
		fmt.Fprintf(w, "note: %s\n", res.Note)
	}
	for _, e := range res.ReproErrors {
		fmt.Fprintf(w, "repro not written: %s\n", safe(e))
	}
}

func orWhole(field string) string {
	if field == "" {
		return "(the whole result: one host has none)"
	}
	return field
}
