package main

import (
	"flag"

	"github.com/galaxy-stack/conform/reports"
)

// reportFlags are the report files a command writes, under Ginkgo's flag
// names: --json-report, --junit-report, --md-report, --html-report.
type reportFlags struct {
	json, junit, md, html *string
}

// addReportFlags declares the report flags on fs; jsonWhat says what
// --json-report writes.
func addReportFlags(fs *flag.FlagSet, jsonWhat string) *reportFlags {
	return &reportFlags{
		json:  fs.String("json-report", "", "write "+jsonWhat+" to `FILE`"),
		junit: fs.String("junit-report", "", "write the results as JUnit XML to `FILE`"),
		md:    fs.String("md-report", "", "write a Markdown summary (for $GITHUB_STEP_SUMMARY) to `FILE`"),
		html:  fs.String("html-report", "", "write a self-contained HTML report to `FILE`"),
	}
}

// renderers pairs each rendered report flag with its renderer.
func (r *reportFlags) renderers() []struct {
	flag, path string
	render     reports.Renderer
} {
	return []struct {
		flag, path string
		render     reports.Renderer
	}{
		{"--junit-report", *r.junit, reports.RenderJUnit},
		{"--md-report", *r.md, reports.RenderMarkdown},
		{"--html-report", *r.html, reports.RenderHTML},
	}
}

// check refuses, before anything runs, a report path that cannot be
// written.
func (r *reportFlags) check(cmd string) error {
	paths := [][2]string{{"--json-report", *r.json}}
	for _, x := range r.renderers() {
		paths = append(paths, [2]string{x.flag, x.path})
	}
	for _, p := range paths {
		if p[1] == "" {
			continue
		}
		if err := reports.CheckWritable(p[1]); err != nil {
			return usagef("%s: %s %s: %v", cmd, p[0], p[1], err)
		}
	}
	return nil
}

// writeRendered writes the JUnit, Markdown and HTML reports asked for.
func (r *reportFlags) writeRendered(docs ...*reports.Document) error {
	for _, x := range r.renderers() {
		if x.path == "" {
			continue
		}
		if err := reports.WriteRendered(x.path, x.render, docs...); err != nil {
			return err
		}
	}
	return nil
}

// write writes the result document to --json-report and the rendered
// reports.
func (r *reportFlags) write(doc *reports.Document) error {
	if *r.json != "" {
		if err := reports.WriteFile(*r.json, doc); err != nil {
			return err
		}
	}
	return r.writeRendered(doc)
}
