package main

import (
	"os"
	"strconv"

	"github.com/galaxy-stack/conform/reports"
	"github.com/joshdk/go-junit"
	"github.com/rogpeppe/go-internal/testscript"
)

// cmdValidreport is the script command
//
//	validreport FILE [KIND]
//
// It fails unless FILE is a result document valid against conform's JSON
// Schema (reports/schema/result.schema.json), of kind KIND when given.
func cmdValidreport(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 1 || len(args) > 2 {
		ts.Fatalf("usage: validreport FILE [KIND]")
	}
	b, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	d, err := reports.Decode(b)
	if neg {
		if err == nil {
			ts.Fatalf("%s is a valid result document", args[0])
		}
		return
	}
	if err != nil {
		ts.Fatalf("%s: %v", args[0], err)
	}
	if len(args) == 2 && d.Kind != args[1] {
		ts.Fatalf("%s is of kind %q, want %q", args[0], d.Kind, args[1])
	}
}

// cmdJunit is the script command
//
//	junit FILE TESTS FAILED SKIPPED
//
// It reads FILE with a standard JUnit parser (github.com/joshdk/go-junit)
// and fails unless it holds TESTS test cases of which FAILED failed and
// SKIPPED were skipped, each with a name.
func cmdJunit(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 4 {
		ts.Fatalf("usage: junit FILE TESTS FAILED SKIPPED")
	}
	suites, err := junit.IngestFile(ts.MkAbs(args[0]))
	ts.Check(err)
	var tests, failed, skipped int
	for _, s := range suites {
		for _, t := range s.Tests {
			tests++
			if t.Name == "" {
				ts.Fatalf("%s: a test case without a name", args[0])
			}
			switch t.Status {
			case junit.StatusFailed:
				failed++
				if t.Error == nil || t.Error.Error() == "" {
					ts.Fatalf("%s: test case %q failed without a message", args[0], t.Name)
				}
			case junit.StatusSkipped:
				skipped++
			}
		}
	}
	want := []int{0, 0, 0}
	for i := range want {
		n, err := strconv.Atoi(args[i+1])
		ts.Check(err)
		want[i] = n
	}
	if tests != want[0] || failed != want[1] || skipped != want[2] {
		ts.Fatalf("%s: %d tests, %d failed, %d skipped; want %d, %d, %d", args[0], tests, failed, skipped, want[0], want[1], want[2])
	}
}
