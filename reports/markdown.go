package reports

import (
	"fmt"
	"io"
	"strings"
)

// mdStatus is the status as a Markdown grid cell.
var mdStatus = map[string]string{
	Passed: "✅ passed", Failed: "❌ failed", NotApplicable: "⚪ n/a", Skipped: "⏭️ skipped",
}

// mdCell makes s safe inside a Markdown table cell: one line, pipes
// escaped.
func mdCell(s string) string {
	s = strings.ReplaceAll(s, "\r", "")
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\n", "<br>")
}

// mdCode writes s as inline code, with a fence long enough for any
// backticks in it.
func mdCode(s string) string {
	if s == "" {
		return ""
	}
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	return fence + " " + mdCell(s) + " " + fence
}

// RenderMarkdown writes docs as Markdown for a CI step summary
// ($GITHUB_STEP_SUMMARY): per document the counts, one row per failure
// with its repro command, and the full grid collapsed in <details>.
func RenderMarkdown(w io.Writer, docs ...*Document) error {
	var b strings.Builder
	for i, d := range docs {
		if i > 0 {
			b.WriteString("\n")
		}
		s := d.Summary
		verdict := "✅ passed"
		if s.Failed > 0 {
			verdict = "❌ failed"
		}
		if d.Interrupted {
			verdict = "⚠️ interrupted"
		}
		fmt.Fprintf(&b, "## conform %s: %s\n\n", d.Kind, verdict)
		fmt.Fprintf(&b, "Host %s", mdCode(HostLabel(d)))
		if id := hostIdentity(d); id != "" {
			fmt.Fprintf(&b, " (%s)", mdCell(id))
		}
		fmt.Fprintf(&b, " · conform %s · matrix %s · %s/%s\n\n", mdCell(d.Harness.Version), mdCell(d.MatrixVersion), d.OS, d.Arch)
		b.WriteString("| Passed | Failed | Not applicable | Skipped |\n|---:|---:|---:|---:|\n")
		fmt.Fprintf(&b, "| %d | %d | %d | %d |\n\n", s.Passed, s.Failed, s.NotApplicable, s.Skipped)
		if d.Interrupted {
			b.WriteString("> **Interrupted**: a signal stopped the run; items that did not finish are skipped, never passed.\n\n")
		}
		if len(d.Planned) > 0 {
			fmt.Fprintf(&b, "%d matrix items are planned and not yet runnable in this version.\n\n", len(d.Planned))
		}
		if s.Failed > 0 {
			fmt.Fprintf(&b, "### Failures (%d)\n\n| Item | Title | Reason | Repro |\n|---|---|---|---|\n", s.Failed)
			for _, it := range d.Items {
				if it.Status == Failed {
					fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", mdCell(ItemRef(it)), mdCell(it.Title), mdCell(FirstLine(it.Reason)), mdCode(it.Repro))
				}
			}
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "<details><summary>All %d items</summary>\n\n| Item | Area | Title | Status | Time | Reason |\n|---|---|---|---|---:|---|\n", len(d.Items))
		for _, it := range d.Items {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %ss | %s |\n", mdCell(ItemRef(it)), mdCell(it.Area), mdCell(it.Title), mdStatus[it.Status], seconds(it.DurationMs), mdCell(FirstLine(it.Reason)))
		}
		b.WriteString("\n</details>\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
