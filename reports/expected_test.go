package reports

import (
	"encoding/json"
	"strings"
	"testing"
)

// expectedDoc is a certify document with one expected failure and one
// that is not expected.
func expectedDoc() *Document {
	d := &Document{SchemaVersion: SchemaVersion, Kind: KindCertify, Harness: Harness{Name: "conform", Version: "test"},
		Host: Host{Command: "reference"}, OS: "linux", Arch: "amd64", MatrixVersion: "0.1.0",
		Items: []Item{
			{ID: 1, Ref: "1", Name: "one", Title: "first", Area: "workspace", Status: Failed, Reason: "known gap", Repro: "conform certify --host reference --only 1",
				Expected: &ExpectedFailure{Reason: "tracked in #12", Owner: "ana", Expires: "2030-01-31", Source: "expect.json:3"}},
			{ID: 2, Ref: "2", Name: "two", Title: "second", Area: "workspace", Status: Passed},
		}}
	d.Tally()
	return d
}

// TestExpectedFailuresAreValid checks that a document with an expected
// failure passes the schema and counts it, and that an expectation on an
// item that did not fail does not pass.
func TestExpectedFailuresAreValid(t *testing.T) {
	d := expectedDoc()
	if s := d.Summary; s.Failed != 1 || s.ExpectedFailures != 1 || s.Unexpected() != 0 {
		t.Fatalf("summary %+v, want 1 failed, 1 expected", s)
	}
	b, _ := json.Marshal(d)
	if err := Validate(b); err != nil {
		t.Errorf("a document with an expected failure fails the schema: %v", err)
	}
	d.Items[1].Expected = d.Items[0].Expected
	b, _ = json.Marshal(d)
	if Validate(b) == nil {
		t.Error("an expectation on a passed item passes the schema")
	}
}

// TestRenderersShowExpectedFailures checks that every renderer says a
// failure is expected, and that one expected failure does not fail the
// verdict or the JUnit suite.
func TestRenderersShowExpectedFailures(t *testing.T) {
	d := expectedDoc()
	md := rendered(t, RenderMarkdown, d)
	expectContains(t, "Markdown", md, "## conform certify: ✅ passed", "### Expected failures (1)", "| 1 | first | known gap | tracked in #12 | ana | 2030-01-31 | ` expect.json:3 ` |", "❌ failed (expected)")
	if strings.Contains(md, "### Failures") {
		t.Errorf("the Markdown lists an expected failure under Failures:\n%s", md)
	}
	html := rendered(t, RenderHTML, d)
	expectContains(t, "HTML", html, `class="verdict passed"`, "of them expected", "Expected failure: tracked in #12 — owner ana, until 2030-01-31 (expect.json:3)")
	junit := rendered(t, RenderJUnit, d)
	expectContains(t, "JUnit", junit, `failures="0"`, `expected failure: tracked in #12 (owner ana, until 2030-01-31, expect.json:3): known gap`)
}
