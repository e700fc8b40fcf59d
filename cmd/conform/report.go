package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"

	"github.com/galaxy-stack/conform/internal/termsafe"
	"github.com/galaxy-stack/conform/matrix/progress"
	"github.com/galaxy-stack/conform/reports"
)

var _ = register(def[reportCmdFlags]{
	Name:      "report",
	UsageLine: "conform report render FILE... [--junit-report F] [--md-report F] [--html-report F] [--max-document-size BYTES] | conform report merge FILE... -o FILE [--max-document-size BYTES]",
	Short:     "render result documents as JUnit, Markdown or HTML, or merge them",
	Long: `Report works on result documents that certify, run and selftest write with
--json-report (or print with --json).

render reads one or more documents (or cross documents) and writes the
reports asked for: --junit-report (JUnit XML, one test case per item, per
fixture for run), --md-report (Markdown for $GITHUB_STEP_SUMMARY: the counts,
a row per failure with its repro command, the full grid collapsed) and
--html-report (one self-contained page: the item grid by area, failures with
copyable repro commands, filters; with several documents a host × item, or
OS × item, table). With no report flag it prints the Markdown.

merge combines documents (-o FILE). The shards of one certification merge
into ONE result document of the ordinary kind, valid against the result
schema, equal to a serial run of the union of the selections in every
comparable field (all but startedAt and durations); its summary is counted
from the items. Shards are documents of the same host (--host command,
--mutant or --variant, binary and program digests) on the same OS and
architecture; they must come from the same conform (version and commit)
and the same matrix version, or the merge is refused. Their selections may
overlap: an item in two shards with the same status is kept once (the
first file's), with two statuses the merge is refused naming both files.
Documents of several hosts, builds or systems merge into a cross document
(kind "merge", reports/schema/merge.schema.json), which render shows as a
host × item, or OS × item, table.

To shard a certification, give each job a part of the matrix with
certify --shard i/n (or --only, --area), and merge what they write:

  conform certify --host H --shard 1/2 --json-report shard1.json
  conform certify --host H --shard 2/2 --json-report shard2.json
  conform report merge shard1.json shard2.json -o conform.json --md-report conform.md

Every document is checked against conform's result schema first
(reports/schema/result.schema.json; a cross document against
reports/schema/merge.schema.json), and redacted; a document that does not match is
refused, naming the violation. A document larger than --max-document-size
(default 64 MiB) is refused before it is read; reading one holds about seven
times its size in memory. A document is data: the
reports escape every string in it (HTML and Markdown markup, terminal
control characters) and count its items themselves, whatever its summary
says. Report files are written atomically, and only to a regular file or
a new path: a FIFO, device node, symbolic link or directory is refused
before anything is read. Exit status: render 0 done; merge 0 when no
merged item failed (or every failure is expected, certify --expect), 1
when one did, after writing every file; 2 a file cannot be read, is too
large or is not a valid document, merge's inputs are mismatched shards or
give an item two statuses, or a report path cannot be written.`,
	Interspersed: true,
	Flags: func(fs *flag.FlagSet) *reportCmdFlags {
		f := &reportCmdFlags{}
		f.reports = addReportFlags(fs, "nothing (use -o with merge)")
		fs.StringVar(&f.out, "o", "", "merge: write the merged document to `FILE`")
		f.maxSize = addMaxDocumentSizeFlag(fs)
		return f
	},
	Run: runReport,
})

// reportCmdFlags are the flags of conform report.
type reportCmdFlags struct {
	reports *reportFlags
	out     string
	maxSize *int64
}

// runReport runs conform report.
func runReport(f *reportCmdFlags, args []string, out streams) error {
	if len(args) == 0 {
		return usagef("report: want render or merge\nusage: conform report render FILE... | conform report merge FILE... -o FILE")
	}
	sub := args[0]
	files := args[1:]
	if len(files) == 0 {
		return usagef("report %s: no result document given", sub)
	}
	if err := f.check(sub); err != nil {
		return err
	}
	var docs []*reports.Document
	var inputs []reports.MergeInput
	for _, file := range files {
		ds, err := reports.ReadFile(file, *f.maxSize)
		if err != nil {
			var tl *reports.TooLargeError
			var pe *fs.PathError
			if errors.As(err, &tl) || errors.As(err, &pe) { // they name the file
				return usagef("report %s: %v", sub, err)
			}
			return usagef("report %s: %s: %v", sub, file, err)
		}
		for i, d := range ds {
			reports.Redact(d)
			name := file
			if len(ds) > 1 {
				name = fmt.Sprintf("%s (document %d)", file, i+1)
			}
			inputs = append(inputs, reports.MergeInput{Name: termsafe.Line(name), Doc: d})
		}
		docs = append(docs, ds...)
	}
	switch sub {
	case "render":
		if *f.reports.junit == "" && *f.reports.md == "" && *f.reports.html == "" {
			// The Markdown goes to a terminal, perhaps: terminal controls
			// are escaped (RenderMarkdown escapes every cell already).
			w := termsafe.NewWriter(out.stdout)
			if err := reports.RenderMarkdown(w, docs...); err != nil {
				return err
			}
			return w.Flush()
		}
		return f.reports.writeRendered(docs...)
	case "merge":
		return mergeReports(f, inputs, out)
	}
	panic("unreachable: check accepted subcommand " + sub)
}

// mergeReports merges the documents read, writes the merged document and
// the reports asked for, and prints what it wrote and the merged verdict:
// errFailed when an item failed that no expectation allows.
func mergeReports(f *reportCmdFlags, inputs []reports.MergeInput, out streams) error {
	m, err := reports.Merge(inputs)
	if err != nil {
		return usagef("report merge: %v", err)
	}
	if err := reports.WriteMerged(f.out, m); err != nil {
		return usagef("report merge: %v", err)
	}
	what := "one result document"
	if len(m.Documents) > 1 {
		what = fmt.Sprintf("a cross document of %d", len(m.Documents))
	}
	w := termsafe.NewWriter(out.stdout)
	fmt.Fprintf(w, "merged %d documents into %s (%s)\n", len(inputs), what, termsafe.Line(f.out))
	for _, d := range m.Documents {
		s := d.Summary
		fmt.Fprintf(w, "%s on %s/%s: %d passed, %d failed", termsafe.Line(reports.HostLabel(d)), termsafe.Line(d.OS), termsafe.Line(d.Arch), s.Passed, s.Failed)
		if s.ExpectedFailures > 0 {
			fmt.Fprintf(w, " (%d expected)", s.ExpectedFailures)
		}
		fmt.Fprintf(w, ", %d not applicable, %d skipped", s.NotApplicable, s.Skipped)
		if s.NotApplicableScenarios > 0 {
			fmt.Fprintf(w, " (%d scenarios not applicable)", s.NotApplicableScenarios)
		}
		fmt.Fprintln(w)
		progress.Recap(w, d)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if err := f.reports.writeRendered(m.Documents...); err != nil {
		return err
	}
	if reports.AnyFailed(m.Documents...) {
		return errFailed
	}
	return nil
}

// check refuses, before any document is read, an unknown subcommand, a
// flag that does not apply to it and a report path that cannot be
// written.
func (f *reportCmdFlags) check(sub string) error {
	if *f.maxSize <= 0 {
		return usagef("report %s: --max-document-size must be a positive number of bytes", sub)
	}
	switch sub {
	case "render":
		if *f.reports.json != "" {
			return usagef("report render: --json-report is for merge; render writes --junit-report, --md-report and --html-report")
		}
		return f.reports.check("report render")
	case "merge":
		if f.out == "" {
			return usagef("report merge: -o FILE is required")
		}
		if *f.reports.json != "" {
			return usagef("report merge: the merge document goes to -o FILE, not --json-report")
		}
		return f.reports.check("report merge", reportPath{"-o", f.out})
	}
	return usagef("report: unknown subcommand %q; want render or merge", sub)
}
