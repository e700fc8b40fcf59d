package progress

import (
	"bytes"
	"strings"
	"testing"

	"github.com/galaxy-stack/conform/reports"
)

func TestPrinterWritesOneLinePerFinishedItem(t *testing.T) {
	var b bytes.Buffer
	p := New(&b, false, false, 3)
	p.Starting(1, "1", "first")
	p.Update(reports.Item{ID: 1, Ref: "1", Title: "first", Status: reports.Passed, DurationMs: 1500})
	p.Starting(101, "R1", "second")
	p.Update(reports.Item{ID: 101, Ref: "R1", Title: "second\x1b[31m", Status: reports.Failed, Reason: "line one\nline two", Repro: "conform certify --only R1"})
	p.Update(reports.Item{ID: 2, Ref: "2", Title: "third", Status: reports.Skipped})
	p.Finish()
	want := "✓ 1 first 1.50s\n" +
		"✗ R1 second\\x1b[31m 0.00s\n    line one\n    line two\n    repro: conform certify --only R1\n"
	if got := b.String(); got != want {
		t.Errorf("printed\n%q\nwant\n%q", got, want)
	}
}

func TestRecapListsFailuresToFix(t *testing.T) {
	var b bytes.Buffer
	Recap(&b, &reports.Document{Items: []reports.Item{
		{ID: 1, Title: "ok", Status: reports.Passed},
		{ID: 5, Title: "cancel", Status: reports.Failed, Reason: "first\nsecond", Repro: "conform certify --only 5"},
	}})
	got := b.String()
	if !strings.Contains(got, "To fix (1):") || !strings.Contains(got, "5 cancel: first\n") || strings.Contains(got, "second") || !strings.Contains(got, "repro: conform certify --only 5") {
		t.Errorf("recap:\n%s", got)
	}
	b.Reset()
	Recap(&b, &reports.Document{Items: []reports.Item{{ID: 1, Status: reports.Passed}}})
	if b.Len() != 0 {
		t.Errorf("recap of a run without failures = %q, want nothing", b.String())
	}
}

func TestNilPrinterPrintsNothing(t *testing.T) {
	var p *Printer
	p.Starting(1, "1", "x")
	p.Update(reports.Item{ID: 1})
	p.Finish()
}
