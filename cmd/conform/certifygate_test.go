package main

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/galaxy-stack/conform/matrix/expect"
	"github.com/galaxy-stack/conform/reports"
)

// An entry expires by the gate's clock: on its last day it still allows
// the failure, the day after it fails the run.
func TestGateExpiresByItsClock(t *testing.T) {
	f, err := expect.Parse("e.json", []byte(`{"expectations": [{"item": "1", "reason": "r", "owner": "o", "expires": "2030-06-30"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	for day, wantProblems := range map[string]int{"2030-06-30": 0, "2030-07-01": 1} {
		now, _ := time.Parse(time.DateOnly, day)
		g := &gateFlags{today: func() time.Time { return now }}
		doc := &reports.Document{Items: []reports.Item{{ID: 1, Status: reports.Failed, Reason: "x", Repro: "y"}}}
		if p := g.apply(f, doc); len(p) != wantProblems {
			t.Errorf("on %s: problems %v, want %d", day, p, wantProblems)
		}
	}
}

// --strict refuses --expect and --skip as an invocation error.
func TestStrictRefusesExpectAndSkip(t *testing.T) {
	for _, g := range []*gateFlags{{strict: true, expect: "e.json"}, {strict: true, skip: "1"}} {
		_, _, err := g.load()
		var u *usageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), "--strict refuses") {
			t.Errorf("load(%+v) = %v, want a usage error", g, err)
		}
	}
}
