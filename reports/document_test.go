package reports

import (
	"encoding/json"
	"os"
	"path/filepath"
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
