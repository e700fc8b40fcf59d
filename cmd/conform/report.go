package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/galaxy-stack/conform/reports"
)

var _ = register(&command{
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
	Run: func(fs *flag.FlagSet, stdout, stderr io.Writer) func([]string) error {
		rf := addReportFlags(fs, "nothing (use -o with merge)")
		out := fs.String("o", "", "merge: write the merge document to `FILE`")
		return func(args []string) error {
			if len(args) == 0 {
				return usagef("report: want render or merge\nusage: conform report render FILE... | conform report merge FILE... -o FILE")
			}
			sub := args[0]
			files, err := interspersed(fs, args[1:])
			if err != nil {
				return err
			}
			if len(files) == 0 {
				return usagef("report %s: no result document given", sub)
			}
			var docs []*reports.Document
			for _, f := range files {
				b, err := os.ReadFile(f)
				if err != nil {
					return usagef("report %s: %v", sub, err)
				}
				ds, err := reports.DecodeAny(b)
				if err != nil {
					return usagef("report %s: %s: %v", sub, f, err)
				}
				docs = append(docs, ds...)
			}
			switch sub {
			case "render":
				if err := rf.check("report render"); err != nil {
					return err
				}
				if *rf.json != "" {
					return usagef("report render: --json-report is for merge; render writes --junit-report, --md-report and --html-report")
				}
				if *rf.junit == "" && *rf.md == "" && *rf.html == "" {
					return reports.RenderMarkdown(stdout, docs...)
				}
				return rf.writeRendered(docs...)
			case "merge":
				if *out == "" {
					return usagef("report merge: -o FILE is required")
				}
				if *rf.json != "" {
					return usagef("report merge: the merge document goes to -o FILE, not --json-report")
				}
				if err := reports.CheckWritable(*out); err != nil {
					return usagef("report merge: -o %s: %v", *out, err)
				}
				m, err := reports.Merge(docs)
				if err != nil {
					return usagef("report merge: %v", err)
				}
				if err := reports.WriteJSON(*out, m); err != nil {
					return err
				}
				fmt.Fprintf(stdout, "merged %d documents into %d (%s)\n", len(docs), len(m.Documents), *out)
				return rf.writeRendered(m.Documents...)
			}
			return usagef("report: unknown subcommand %q; want render or merge", sub)
		}
	},
})
