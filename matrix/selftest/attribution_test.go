package selftest

import (
	"slices"
	"strings"
	"testing"

	"github.com/galaxy-stack/conform/hosts/mutants"
	"github.com/galaxy-stack/conform/matrix"
	"github.com/galaxy-stack/conform/reports"
)

// TestKillsAreAttributed checks the kill rule: an item kills a fault only
// when one of its checks failed on an assertion of a sentence the fault
// breaks; a host that died, a deadline or a check of another sentence is
// collateral.
func TestKillsAreAttributed(t *testing.T) {
	check := func(cause string, keys ...string) reports.FailedCheck {
		return reports.FailedCheck{Check: "c", Sentences: keys, Cause: cause}
	}
	doc := &reports.Document{Items: []reports.Item{
		{ID: 1, Status: reports.Failed, FailedChecks: []reports.FailedCheck{check(reports.CauseAssertion, "W5", "L1")}},
		{ID: 2, Status: reports.Failed, FailedChecks: []reports.FailedCheck{check(reports.CauseHost, "W3", "L2")}},
		{ID: 3, Status: reports.Failed, FailedChecks: []reports.FailedCheck{check(reports.CauseDeadline, "W3")}},
		{ID: 13, Status: reports.Failed, FailedChecks: []reports.FailedCheck{check(reports.CauseAssertion, "W2", "L13"), check(reports.CauseHost, "W3")}},
		{ID: 8, Status: reports.Failed, FailedChecks: []reports.FailedCheck{check(reports.CauseSchema, "T2")}},
		{ID: 6, Status: reports.Passed},
	}}
	for _, tc := range []struct {
		breaks     []string
		killed     []int
		collateral []int
		status     string
	}{
		{[]string{"W3"}, nil, []int{1, 2, 3, 13, 8}, Collateral},
		{[]string{"W2"}, []int{13}, []int{1, 2, 3, 8}, Killed},
		{[]string{"W5"}, []int{1}, []int{2, 3, 13, 8}, Killed},
		{[]string{"T1"}, []int{8}, []int{1, 2, 3, 13}, Killed},
	} {
		fr := FaultResult{Fault: Fault{Name: "f", Sentences: tc.breaks}}
		fr.attribute(doc)
		var collateral []int
		for _, c := range fr.Collateral {
			collateral = append(collateral, c.Item)
		}
		if !slices.Equal(fr.KilledBy, tc.killed) || !slices.Equal(collateral, tc.collateral) || fr.Status != tc.status {
			t.Errorf("breaking %v: killed by %v, collateral %v, status %s; want %v, %v, %s", tc.breaks, fr.KilledBy, collateral, fr.Status, tc.killed, tc.collateral, tc.status)
		}
	}
	fr := FaultResult{Fault: Fault{Name: "f", Sentences: []string{"W3"}}}
	fr.attribute(doc)
	if why := collateralText(fr.Collateral); !strings.Contains(why, "item 2: host") || !strings.Contains(why, "item 1: checks of W5, L1") {
		t.Errorf("collateral reasons do not say why: %s", why)
	}
}

// TestFaultsNameKnownSentences fails on a fault that breaks no sentence,
// or one the matrix does not know.
func TestFaultsNameKnownSentences(t *testing.T) {
	for _, f := range Faults() {
		if f.Kind == KindControl {
			if len(f.Sentences) != 0 {
				t.Errorf("control %s names sentences %v; a control breaks none", f.Name, f.Sentences)
			}
			continue
		}
		if len(f.Sentences) == 0 {
			t.Errorf("%s %s names no sentence it breaks", f.Kind, f.Name)
		}
		for _, k := range f.Sentences {
			if _, ok := matrix.SentenceByKey(k); !ok {
				t.Errorf("%s %s breaks %q, which is no sentence of the matrix", f.Kind, f.Name, k)
			}
		}
	}
	if len(mutants.All()) == 0 {
		t.Fatal("no mutants")
	}
}

// TestControlsAreNeverCredited checks that a control credited with a kill,
// or failing nothing, is a problem of the self-test.
func TestControlsAreNeverCredited(t *testing.T) {
	for status, want := range map[string]bool{Killed: true, Survived: true, Collateral: false} {
		fr := FaultResult{Fault: Fault{Name: "control-crash", Kind: KindControl}, KillOutcome: reports.KillOutcome{Status: status, Ran: []int{1}, KilledBy: []int{1}}}
		if got := len(controlProblems(fr)) > 0; got != want {
			t.Errorf("control with status %s: problem %v, want %v", status, got, want)
		}
	}
}

// TestUntestableHere checks that a surviving fault a not-applicable check
// could have seen is untestable here, with why and the fix, and that one no
// such check could see still survives.
func TestUntestableHere(t *testing.T) {
	doc := &reports.Document{Items: []reports.Item{{ID: 28, Status: reports.Passed,
		NotApplicable: []reports.NotApplicableScenario{{Scenario: "verified/contained", Reason: "the host's initialize reports no active verified containment backend"}}}}}
	fr := FaultResult{Fault: Fault{Name: "f", Sentences: []string{"C11"}}}
	fr.attribute(doc)
	if fr.Status != Untestable || !strings.Contains(fr.Error, "verified/contained") || !strings.Contains(fr.Error, "install bubblewrap") {
		t.Errorf("a fault only the not-applicable check could see: status %s, %q", fr.Status, fr.Error)
	}
	fr = FaultResult{Fault: Fault{Name: "g", Sentences: []string{"W2"}}}
	fr.attribute(doc)
	if fr.Status != Survived {
		t.Errorf("a fault checks that ran could see: status %s, want survived", fr.Status)
	}
}

// TestLinesNameItemsByReference checks the self-test's lines name items as
// people name them everywhere else (R2, not 102).
func TestLinesNameItemsByReference(t *testing.T) {
	fr := FaultResult{Fault: Fault{Name: "f"}, KillOutcome: reports.KillOutcome{Status: Killed, Ran: []int{7, 102}, KilledBy: []int{7, 102}}}
	if got := failedText(fr); got != "killed by 7,R2" {
		t.Errorf("failedText = %q, want %q", got, "killed by 7,R2")
	}
	if got := joinRefs([]int{101, 13}); got != "R1,13" {
		t.Errorf("joinRefs = %q", got)
	}
}
