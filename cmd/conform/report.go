package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/galaxy-stack/conform/reports"
)

var _ = register(def[reportCmdFlags]{
	Name:      "report",
	UsageLine: "conform report render FILE... [--junit-report F] [--md-report F] [--html-report F] | conform report merge FILE... -o FILE",
	Short:     "render result documents as JUnit, Markdown or HTML, or merge them",
	Long: `Report works on result documents that certify, run and selftest write with
--json-report (or print with --json).

render reads one or more documents (or merge documents) and writes the
reports asked for: --junit-report (JUnit XML, one test case per item, per
fixture for run), --md-report (Markdown for $GITHUB_STEP_SUMMARY: the counts,
a row per failure with its repro command, the full grid collapsed) and
--html-report (one self-contained page: the item grid by area, failures with
copyable repro commands, filters; with several documents a host × item, or
OS × item, table). With no report flag it prints the Markdown.

merge combines documents into one merge document (-o FILE): the shards of one
certification (same host, build and system) become one document; documents
of other hosts or systems stay side by side, which render shows as the
cross table.

Every document is checked against conform's result schema first
(reports/schema/result.schema.json); a document that does not match is
refused, naming the violation. Exit status: 0 done; 2 a file cannot be read
or is not a valid document.`,
	Interspersed: true,
	Flags: func(fs *flag.FlagSet) *reportCmdFlags {
		f := &reportCmdFlags{}
		f.reports = addReportFlags(fs, "nothing (use -o with merge)")
		fs.StringVar(&f.out, "o", "", "merge: write the merge document to `FILE`")
		return f
	},
	Run: runReport,
})

// reportCmdFlags are the flags of conform report.
type reportCmdFlags struct {
	reports *reportFlags
	out     string
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
	var docs []*reports.Document
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			return usagef("report %s: %v", sub, err)
		}
		ds, err := reports.DecodeAny(b)
		if err != nil {
			return usagef("report %s: %s: %v", sub, file, err)
		}
		for _, d := range ds {
			reports.Redact(d)
		}
		docs = append(docs, ds...)
	}
	switch sub {
	case "render":
		if err := f.reports.check("report render"); err != nil {
			return err
		}
		if *f.reports.json != "" {
			return usagef("report render: --json-report is for merge; render writes --junit-report, --md-report and --html-report")
		}
		if *f.reports.junit == "" && *f.reports.md == "" && *f.reports.html == "" {
			return reports.RenderMarkdown(out.stdout, docs...)
		}
		return f.reports.writeRendered(docs...)
	case "merge":
		if f.out == "" {
			return usagef("report merge: -o FILE is required")
		}
		if *f.reports.json != "" {
			return usagef("report merge: the merge document goes to -o FILE, not --json-report")
		}
		if err := reports.CheckWritable(f.out); err != nil {
			return usagef("report merge: -o %s: %v", f.out, err)
		}
		m, err := reports.Merge(docs)
		if err != nil {
			return usagef("report merge: %v", err)
		}
		if err := reports.WriteJSON(f.out, m); err != nil {
			return err
		}
		fmt.Fprintf(out.stdout, "merged %d documents into %d (%s)\n", len(docs), len(m.Documents), f.out)
		return f.reports.writeRendered(m.Documents...)
	}
	return usagef("report: unknown subcommand %q; want render or merge", sub)
}
