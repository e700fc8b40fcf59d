package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/galaxy-stack/conform/matrix/selftest"
	"github.com/galaxy-stack/conform/reports"
)

// TestPrintSelftestMatrices prints a kill matrix and an acceptance matrix
// and reads each row's cells back.
func TestPrintSelftestMatrices(t *testing.T) {
	res := &selftest.Result{
		Items: []reports.KillColumn{{ID: 1}, {ID: 2}, {ID: 3}},
		Faults: []selftest.FaultResult{
			{Fault: selftest.Fault{Name: "m-killed", Kind: selftest.KindMutant}, KillOutcome: reports.KillOutcome{Status: selftest.Killed, Ran: []int{1, 2, 3}, FailedItems: []int{1, 2}, KilledBy: []int{1}}},
		},
		Variants: []selftest.VariantResult{
			{Variant: selftest.Variant{Name: "v-over"}, Status: "rejected", Ran: []int{1, 2}, FailedItems: []int{2}},
			{Variant: selftest.Variant{Name: "v-broken"}, Status: selftest.Broken},
		},
	}
	var b strings.Builder
	printSelftest(&b, res)
	space := regexp.MustCompile(` +`)
	rows := map[string]string{}
	for _, line := range strings.Split(b.String(), "\n") {
		f := strings.Fields(line)
		if len(f) > 0 {
			rows[f[0]] = space.ReplaceAllString(strings.TrimSpace(line), " ")
		}
	}
	for name, want := range map[string]string{
		"fault":    "fault 1 2 3",
		"variant":  "variant 1 2 3",
		"m-killed": "m-killed X c .",
		"v-over":   "v-over ok X",
		"v-broken": "v-broken ? ? ?",
	} {
		if rows[name] != want {
			t.Errorf("row %s = %q, want %q; output:\n%s", name, rows[name], want, b.String())
		}
	}
}
