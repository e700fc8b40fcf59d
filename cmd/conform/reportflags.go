package main

import (
	"flag"
	"path/filepath"

	"github.com/galaxy-stack/conform/internal/termsafe"
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

// reportPath is a flag that names a file a command writes, and its value.
type reportPath struct{ flag, path string }

// check refuses, before anything runs, a report path that cannot be
// written — a missing or read-only directory, or a path that exists and is
// not a regular file (a FIFO, a device node, a symbolic link, a directory),
// which conform never replaces — and two flags naming one file. extra are
// the command's other output files (--transcript, -o).
func (r *reportFlags) check(cmd string, extra ...reportPath) error {
	paths := []reportPath{{"--json-report", *r.json}}
	for _, x := range r.renderers() {
		paths = append(paths, reportPath{x.flag, x.path})
	}
	paths = append(paths, extra...)
	seen := map[string]string{} // cleaned absolute path -> flag
	for _, p := range paths {
		if p.path == "" {
			continue
		}
		if err := reports.CheckWritable(p.path); err != nil {
			return usagef("%s: %s %s: %v", cmd, p.flag, termsafe.Line(p.path), err)
		}
		abs, err := filepath.Abs(p.path)
		if err != nil {
			return usagef("%s: %s %s: %v", cmd, p.flag, termsafe.Line(p.path), err)
		}
		if other, ok := seen[abs]; ok {
			return usagef("%s: %s and %s both name %s; give each report its own file", cmd, other, p.flag, termsafe.Line(p.path))
		}
		seen[abs] = p.flag
	}
	return nil
}

// addMaxDocumentSizeFlag declares --max-document-size, the bound on a
// result document a command reads.
func addMaxDocumentSizeFlag(fs *flag.FlagSet) *int64 {
	return fs.Int64("max-document-size", reports.DefaultMaxDocumentSize, "refuse result documents larger than `BYTES`")
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
