package reports

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestTally(t *testing.T) {
	d := &Document{Items: []Item{{Status: Passed}, {Status: Failed}, {Status: Passed}, {Status: NotApplicable}, {Status: Skipped}}}
	d.Tally()
	if d.Summary != (Summary{Passed: 2, Failed: 1, NotApplicable: 1, Skipped: 1}) {
		t.Errorf("Tally = %+v", d.Summary)
	}
}

func TestWriteFileIsAtomicAndComplete(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.json")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	d := &Document{SchemaVersion: SchemaVersion, Items: []Item{{ID: 1, Status: Passed}}}
	if err := WriteFile(path, d); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var back Document
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("written document does not decode: %v", err)
	}
	if back.SchemaVersion != SchemaVersion || len(back.Items) != 1 || back.Items[0].ID != 1 {
		t.Errorf("written document = %+v", back)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("the directory holds %d entries, want only the report (no temporary file left)", len(entries))
	}
}

func TestWriteFileIntoMissingDirectoryFails(t *testing.T) {
	err := WriteFile(filepath.Join(t.TempDir(), "no", "such", "out.json"), &Document{})
	if err == nil {
		t.Fatal("WriteFile into a missing directory succeeded")
	}
}

func TestMarkInterrupted(t *testing.T) {
	d := &Document{Items: []Item{{ID: 1, Status: Passed}, {ID: 2, Status: Skipped, Reason: "interrupted"}, {ID: 3, Status: Skipped}}}
	d.MarkInterrupted()
	if !d.Interrupted || d.Items[1].Reason != "interrupted" || d.Items[2].Reason != NotRunReason {
		t.Errorf("MarkInterrupted = %+v", d)
	}
	if d.Summary != (Summary{Passed: 1, Skipped: 2}) {
		t.Errorf("summary = %+v", d.Summary)
	}
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil || m["interrupted"] != true {
		t.Errorf("the document says %s, want \"interrupted\": true", b)
	}
	b, _ = json.Marshal(&Document{})
	m = nil
	if json.Unmarshal(b, &m); m["interrupted"] != nil {
		t.Errorf("an uninterrupted document has no interrupted field, got %s", b)
	}
}

func TestCheckWritable(t *testing.T) {
	dir := t.TempDir()
	if err := CheckWritable(filepath.Join(dir, "out.json")); err != nil {
		t.Errorf("CheckWritable in a writable directory: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("CheckWritable left %d entries behind", len(entries))
	}
	if err := CheckWritable(filepath.Join(dir, "no", "out.json")); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("CheckWritable in a missing directory = %v", err)
	}
	if err := CheckWritable(dir); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("CheckWritable of a directory = %v", err)
	}
	if os.Geteuid() != 0 && runtime.GOOS != "windows" {
		ro := filepath.Join(dir, "ro")
		if err := os.Mkdir(ro, 0o555); err != nil {
			t.Fatal(err)
		}
		if err := CheckWritable(filepath.Join(ro, "out.json")); err == nil {
			t.Error("CheckWritable in a read-only directory succeeded")
		}
	}
}

// TestNotApplicableScenariosAreValid checks that a document listing an
// item's not-applicable scenarios and counting them passes the schema, and
// that one with a scenario without its reason does not.
func TestNotApplicableScenariosAreValid(t *testing.T) {
	d := &Document{SchemaVersion: SchemaVersion, Kind: KindCertify, Harness: Harness{Name: "conform", Version: "test"},
		Host: Host{Command: "reference"}, OS: "linux", Arch: "amd64", MatrixVersion: "0.1.0",
		Items: []Item{{ID: 102, Ref: "R2", Name: "research-review-only", Title: "t", Area: "research", Status: Passed,
			Reason:        "not applicable: review-only-denied: needs full_contract",
			NotApplicable: []NotApplicableScenario{{Scenario: "review-only-denied", Reason: "needs full_contract"}}}}}
	d.Tally()
	if d.Summary.NotApplicableScenarios != 1 {
		t.Fatalf("the summary counts %d not-applicable scenarios, want 1", d.Summary.NotApplicableScenarios)
	}
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	if err := Validate(b); err != nil {
		t.Errorf("a document with not-applicable scenarios fails the schema: %v", err)
	}
	d.Items[0].NotApplicable[0].Reason = ""
	b, _ = json.Marshal(d)
	if Validate(b) == nil {
		t.Error("a not-applicable scenario without its reason passes the schema")
	}
}
