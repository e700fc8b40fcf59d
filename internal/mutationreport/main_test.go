package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReportMarksStaleExplanations runs the report over one package result
// and checks that a survivor gets its explanation, an unexplained one is
// marked, and an explanation of a killed mutant in a measured file is
// listed as stale while one of an unmeasured file is not.
func TestReportMarksStaleExplanations(t *testing.T) {
	dir := t.TempDir()
	js := `{"files":[{"file_name":"a.go","mutations":[
		{"type":"CONDITIONALS_NEGATION","status":"LIVED","line":3,"column":7},
		{"type":"CONDITIONALS_BOUNDARY","status":"LIVED","line":9,"column":2},
		{"type":"ARITHMETIC_BASE","status":"KILLED","line":12,"column":5}]}]}`
	if err := os.WriteFile(filepath.Join(dir, "core_x.json"), []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	explain := filepath.Join(dir, "explain.txt")
	lines := "# comment\n" +
		"core/x/a.go:3:7 CONDITIONALS_NEGATION equivalent: because.\n" +
		"core/x/a.go:12:5 ARITHMETIC_BASE killed after the measurement.\n" +
		"core/x/b.go:1:1 ARITHMETIC_BASE equivalent: b.go was not mutated.\n"
	if err := os.WriteFile(explain, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(&out, dir, explain, "", ""); err != nil {
		t.Fatal(err)
	}
	md := out.String()
	for _, want := range []string{
		"| core/x | all | 1 | 2 | 0 | 0 | 33.33% | 100.00% | ? |",
		"| core/x/a.go:3:7 | CONDITIONALS_NEGATION | equivalent: because. |",
		"| core/x/a.go:9:2 | CONDITIONALS_BOUNDARY | UNEXPLAINED |",
		"- core/x/a.go:12:5 ARITHMETIC_BASE\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "b.go") {
		t.Errorf("report lists an explanation of an unmeasured file as stale:\n%s", md)
	}
}
