package matrix

import (
	"fmt"
	"testing"

	"github.com/galaxy-stack/conform/matrix/kit"
	"github.com/galaxy-stack/conform/reports"
	"github.com/google/go-cmp/cmp"
	"github.com/onsi/ginkgo/v2/types"
)

// naSpec is a finished spec of item id named leaf, not applicable for
// reason when reason is not empty, passed otherwise.
func naSpec(id int, leaf, reason string) types.SpecReport {
	r := types.SpecReport{LeafNodeLabels: []string{fmt.Sprintf("item:%d", id)}, LeafNodeText: leaf, State: types.SpecStatePassed}
	if reason != "" {
		r.State, r.Failure = types.SpecStateSkipped, types.Failure{Message: kit.NotApplicablePrefix + reason}
	}
	return r
}

// TestItemCountsItsNotApplicableScenarios checks that an item lists and
// counts every scenario that did not apply, with its reason: an item some
// of whose scenarios ran and passed is passed and lists the others; an
// item none of whose scenarios ran is not_applicable; the summary counts
// the scenarios of both.
func TestItemCountsItsNotApplicableScenarios(t *testing.T) {
	storeOff := "the host's initialize declares capabilities.store false"
	tg := &target{items: map[int]*reports.Item{}}
	tg.collect(naSpec(102, "review-only-denied", "the fixture needs the full_contract tool profile"))
	passed := naSpec(102, "in review_only research stays active", "")
	passed.ReportEntries = types.ReportEntries{{Name: kit.AllowanceEntry, Value: types.WrapEntryValue("research.allowLoopback for this spec only")}}
	tg.collect(passed)
	passed.LeafNodeText = "without the network.outbound permission research reaches no source"
	tg.collect(passed)
	tg.collect(naSpec(12, "trace-flush-failure", storeOff))
	tg.collect(naSpec(12, "final-report-failure", storeOff))

	research := tg.items[102]
	same(t, "an item passes on the scenarios it ran", reports.Passed, research.Status)
	same(t, "R2's list", []reports.NotApplicableScenario{{Scenario: "review-only-denied", Reason: "the fixture needs the full_contract tool profile"}}, research.NotApplicable)
	same(t, "R2's reason: its other lines first, said once, then one line per scenario that did not apply",
		"allowance: research.allowLoopback for this spec only\nnot applicable: review-only-denied: the fixture needs the full_contract tool profile", research.Reason)

	store := tg.items[12]
	same(t, "an item none of whose scenarios ran is not applicable", reports.NotApplicable, store.Status)
	same(t, "listed in scenario order, whatever order they ran in", []reports.NotApplicableScenario{{Scenario: "final-report-failure", Reason: storeOff}, {Scenario: "trace-flush-failure", Reason: storeOff}}, store.NotApplicable)
	same(t, "item 12's reason", "not applicable: final-report-failure: "+storeOff+"\nnot applicable: trace-flush-failure: "+storeOff, store.Reason)

	d := &reports.Document{Items: []reports.Item{*research, *store}}
	same(t, "the summary", reports.Summary{Passed: 1, NotApplicable: 1, NotApplicableScenarios: 3}, d.Counts())
}

// same reports what differs between want and got.
func same(t *testing.T, what string, want, got any) {
	t.Helper()
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("%s (-want +got):\n%s", what, d)
	}
}

// TestItemSaysWhatItCouldNotCheck checks that a check a spec could not
// make on the host (kit.Unchecked) is said in the item's reason, and the
// item still passes on what it checked.
func TestItemSaysWhatItCouldNotCheck(t *testing.T) {
	tg := &target{items: map[int]*reports.Item{}}
	r := naSpec(10, "fresh-host-resume", "")
	r.ReportEntries = types.ReportEntries{{Name: kit.UncheckedEntry, Value: types.WrapEntryValue("x.json: the pause checkpoint a fresh host reads back (capabilities.store is false)")}}
	tg.collect(r)
	same(t, "item 10's status", reports.Passed, tg.items[10].Status)
	same(t, "item 10's reason", "not checked: x.json: the pause checkpoint a fresh host reads back (capabilities.store is false)", tg.items[10].Reason)
}
