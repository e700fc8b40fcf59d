package reports

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/galaxy-stack/conform/internal/termsafe"
)

// mdStatus is the status as a Markdown grid cell.
var mdStatus = map[string]string{
	Passed: "✅ passed", Failed: "❌ failed", NotApplicable: "⚪ n/a", Skipped: "⏭️ skipped",
}

// mdStatusCell is the status as a Markdown grid cell; a status the
// schema does not know is shown escaped.
func mdStatusCell(status string) string {
	if c, ok := mdStatus[status]; ok {
		return c
	}
	return mdCell(status)
}

// mdItemStatusCell is the item's status as a grid cell, an expected
// failure said so.
func mdItemStatusCell(it Item) string {
	if it.Status == Failed && it.Expected != nil {
		return "❌ failed (expected)"
	}
	return mdStatusCell(it.Status)
}

// mdEscaper escapes what Markdown or the HTML it may hold would act on:
// the HTML-significant characters become entities, so that a host's
// <script>, <img onerror> or <a href> is text; the characters of Markdown
// links, images, emphasis and code get a backslash; a pipe cannot end a
// table cell.
var mdEscaper = strings.NewReplacer(
	"&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;",
	`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "~", `\~`,
	"|", `\|`, "\n", "<br>",
)

// mdCell makes s, text that came from a host, a fixture or a document,
// safe inside a Markdown table cell: one line, control characters escaped
// (internal/termsafe), nothing Markdown or HTML would interpret.
func mdCell(s string) string {
	return mdEscaper.Replace(termsafe.String(strings.ReplaceAll(s, "\r\n", "\n")))
}

// mdCodeEscaper keeps inline code on one line and inside its table cell;
// nothing else is interpreted in a code span.
var mdCodeEscaper = strings.NewReplacer("|", `\|`, "\n", " ")

// mdCode writes s as inline code, with a fence long enough for any
// backticks in it. Markdown and HTML inside a code span are shown as they
// are, not interpreted.
func mdCode(s string) string {
	if s == "" {
		return ""
	}
	s = mdCodeEscaper.Replace(termsafe.String(strings.ReplaceAll(s, "\r\n", "\n")))
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	return fence + " " + s + " " + fence
}

// RenderMarkdown writes docs as Markdown for a CI step summary
// ($GITHUB_STEP_SUMMARY): per document the counts, one row per failure
// with its repro command, and the full grid collapsed in <details>. The
// counts are those of the items, whatever the document's summary says,
// and every string of the document is escaped (mdCell, mdCode): a
// document is data, never markup.
func RenderMarkdown(w io.Writer, docs ...*Document) error {
	b := bufio.NewWriterSize(w, 64<<10)
	for i, d := range docs {
		if i > 0 {
			b.WriteString("\n")
		}
		s := d.Counts()
		verdict := "✅ passed"
		if s.Unexpected() > 0 {
			verdict = "❌ failed"
		}
		if d.Interrupted {
			verdict = "⚠️ interrupted"
		}
		fmt.Fprintf(b, "## conform %s: %s\n\n", mdCell(d.Kind), verdict)
		fmt.Fprintf(b, "Host %s", mdCode(HostLabel(d)))
		if id := hostIdentity(d); id != "" {
			fmt.Fprintf(b, " (%s)", mdCell(id))
		}
		switch d.Host.PromptInput {
		case "host":
			b.WriteString(" · prompt input: the host's")
		case "defaults":
			b.WriteString(" · prompt input: conform's defaults (the host supplies none)")
		}
		fmt.Fprintf(b, " · conform %s · matrix %s · %s/%s\n\n", mdCell(d.Harness.Version), mdCell(d.MatrixVersion), mdCell(d.OS), mdCell(d.Arch))
		b.WriteString("| Passed | Failed | Not applicable | Skipped |\n|---:|---:|---:|---:|\n")
		fmt.Fprintf(b, "| %d | %d | %d | %d |\n\n", s.Passed, s.Failed, s.NotApplicable, s.Skipped)
		if d.Interrupted {
			b.WriteString("> **Interrupted**: a signal stopped the run; items that did not finish are skipped, never passed.\n\n")
		}
		if s.NotApplicableScenarios > 0 {
			fmt.Fprintf(b, "### Scenarios not applicable (%d)\n\nAn item passes only on the scenarios it ran; these did not apply to the host.\n\n| Item | Status | Scenario | Reason |\n|---|---|---|---|\n", s.NotApplicableScenarios)
			for _, it := range d.Items {
				for _, na := range it.NotApplicable {
					fmt.Fprintf(b, "| %s | %s | %s | %s |\n", mdCell(ItemRef(it)), mdStatusCell(it.Status), mdCell(na.Scenario), mdCell(na.Reason))
				}
			}
			b.WriteString("\n")
		}
		if len(d.Planned) > 0 {
			fmt.Fprintf(b, "%d matrix items are planned and not yet runnable in this version.\n\n", len(d.Planned))
		}
		if s.ExpectedFailures > 0 {
			fmt.Fprintf(b, "### Expected failures (%d)\n\nAn expectations file allows these items to fail; the verdict does not count them.\n\n| Item | Title | Reason | Why expected | Owner | Expires | Entry |\n|---|---|---|---|---|---|---|\n", s.ExpectedFailures)
			for _, it := range d.Items {
				if x := it.Expected; it.Status == Failed && x != nil {
					fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s |\n", mdCell(ItemRef(it)), mdCell(it.Title), mdCell(FirstLine(it.Reason)), mdCell(x.Reason), mdCell(x.Owner), mdCell(x.Expires), mdCode(x.Source))
				}
			}
			b.WriteString("\n")
		}
		if n := s.Unexpected(); n > 0 {
			fmt.Fprintf(b, "### Failures (%d)\n\n| Item | Title | Reason | Repro |\n|---|---|---|---|\n", n)
			for _, it := range d.Items {
				if it.Status == Failed && it.Expected == nil {
					fmt.Fprintf(b, "| %s | %s | %s | %s |\n", mdCell(ItemRef(it)), mdCell(it.Title), mdCell(FirstLine(it.Reason)), mdCode(it.Repro))
				}
			}
			b.WriteString("\n")
		}
		fmt.Fprintf(b, "<details><summary>All %d items</summary>\n\n| Item | Area | Title | Status | Time | Reason |\n|---|---|---|---|---:|---|\n", len(d.Items))
		for _, it := range d.Items {
			fmt.Fprintf(b, "| %s | %s | %s | %s | %ss | %s |\n", mdCell(ItemRef(it)), mdCell(it.Area), mdCell(it.Title), mdItemStatusCell(it), seconds(it.DurationMs), mdCell(FirstLine(it.Reason)))
		}
		b.WriteString("\n</details>\n")
	}
	return b.Flush()
}
