package selftest

import (
	"slices"
	"testing"

	"github.com/galaxy-stack/conform/hosts/mutants"
	"github.com/galaxy-stack/conform/matrix"
	"github.com/galaxy-stack/conform/reports"
)

func TestEveryMutantHasTargets(t *testing.T) {
	for _, name := range mutants.Names() {
		if _, ok := mutantTargets[name]; !ok {
			t.Errorf("mutant %s has no entry in mutantTargets: name the items that could catch it (hosts/mutants/doc.go, Adding a mutant, step 4)", name)
		}
	}
	for name, targets := range mutantTargets {
		if _, ok := mutants.Lookup(name); !ok {
			t.Errorf("mutantTargets names %s, which is not a mutant", name)
		}
		for _, id := range targets {
			if !slices.ContainsFunc(matrix.Items(), func(it matrix.Item) bool { return it.ID == id }) {
				t.Errorf("mutant %s targets item %d, which does not exist", name, id)
			}
		}
	}
}

func TestItemsThatKillNothingCannotFail(t *testing.T) {
	runnable := map[int]matrix.Item{
		1: {ID: 1, Scope: matrix.ScopeHost},
		2: {ID: 2, Scope: matrix.ScopeCore},
		3: {ID: 3, Scope: matrix.ScopeBoth},
		4: {ID: 4, Scope: matrix.ScopeBoth},
	}
	faults := []FaultResult{
		{Fault: Fault{Name: "m", Kind: KindMutant}, KillOutcome: reports.KillOutcome{FailedItems: []int{1, 3}, KilledBy: []int{1, 3}}},
		{Fault: Fault{Name: "c", Kind: KindCore}, KillOutcome: reports.KillOutcome{FailedItems: []int{2, 4}, KilledBy: []int{4}}},
		{Fault: Fault{Name: "control-crash", Kind: KindControl}, KillOutcome: reports.KillOutcome{FailedItems: []int{2}, KilledBy: []int{2}}},
	}
	got := itemResults(runnable, faults)
	want := []string{"", "core fault", "core fault", "mutant of the reference host"}
	for i, ir := range got {
		if ir.CannotFail != want[i] {
			t.Errorf("item %d: cannotFail %q, want %q", ir.ID, ir.CannotFail, want[i])
		}
	}
	if !slices.Equal(got[0].Mutants, []string{"m"}) || !slices.Equal(got[3].CoreFaults, []string{"c"}) {
		t.Errorf("kill lists: %+v", got)
	}
}

func TestUnknownFaultIsRefused(t *testing.T) {
	if _, err := selectFaults([]string{"no-such-fault"}); err == nil {
		t.Fatal("an unknown fault name was accepted")
	}
}
