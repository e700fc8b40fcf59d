package selftest

import (
	"testing"

	"github.com/galaxy-stack/conform/reports"
	"github.com/google/go-cmp/cmp"
)

// TestBySentenceGroupsFaultsBySentence: a fault appears under each
// sentence it breaks, mutants before core faults, controls nowhere, and
// every sentence is listed in the seed's order.
func TestBySentenceGroupsFaultsBySentence(t *testing.T) {
	r := &Result{Faults: []FaultResult{
		{Fault: Fault{Name: "m-a", Kind: KindMutant, Sentences: []string{"T14", "L8"}}, KillOutcome: reports.KillOutcome{Status: Killed}},
		{Fault: Fault{Name: "m-b", Kind: KindMutant, Sentences: []string{"T13", "T14"}}, KillOutcome: reports.KillOutcome{Status: Collateral}},
		{Fault: Fault{Name: "c-a", Kind: KindCore, Sentences: []string{"T14"}}, KillOutcome: reports.KillOutcome{Status: Survived}},
		{Fault: Fault{Name: "ctl", Kind: KindControl}, KillOutcome: reports.KillOutcome{Status: Collateral}},
	}}
	got := map[string][]Attack{}
	var keys []string
	for _, sa := range r.BySentence() {
		keys = append(keys, sa.Key)
		got[sa.Key] = sa.Attacks
	}
	if len(keys) != 56 || keys[0] != "W1" || keys[len(keys)-1] != "S5" {
		t.Fatalf("BySentence lists %d sentences from %s to %s; want the 56 of the seed, W1 to S5", len(keys), keys[0], keys[len(keys)-1])
	}
	want := []Attack{{"m-a", KindMutant, Killed}, {"m-b", KindMutant, Collateral}, {"c-a", KindCore, Survived}}
	if d := cmp.Diff(want, got["T14"]); d != "" {
		t.Errorf("T14's attacks (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]Attack{{"m-b", KindMutant, Collateral}}, got["T13"]); d != "" {
		t.Errorf("T13's attacks (-want +got):\n%s", d)
	}
	if len(got["W1"]) != 0 {
		t.Errorf("W1 is attacked by %v; no fault of the run breaks it", got["W1"])
	}
}
