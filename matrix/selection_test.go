package matrix

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/galaxy-stack/conform/reports"
)

// TestSelectionThatRunsNothingIsRefused checks that a selection with no
// runnable item is an invocation error saying what was selected.
func TestSelectionThatRunsNothingIsRefused(t *testing.T) {
	var all []int
	for id := range registry {
		all = append(all, id)
	}
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{Area: "model", Skip: []int{25, 26, 36, 38}}, "--area model --skip 25,26,36,38 selects no runnable item, so nothing would run"},
		{Config{Only: []int{1}, Area: "tools"}, "--only 1 --area tools selects no runnable item"},
		{Config{Only: []int{1, 101}, Skip: []int{1, 101}}, "--only 1,R1 --skip 1,R1 selects no runnable item"},
		{Config{Skip: all}, "selects no runnable item"},
	} {
		err := checkSelection(tc.cfg)
		var inv *InvocationError
		if !errors.As(err, &inv) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("checkSelection(%+v) = %v, want an invocation error containing %q", tc.cfg, err, tc.want)
		}
	}
	if err := checkSelection(Config{Only: []int{1, 2}, Skip: []int{2}}); err != nil {
		t.Errorf("a selection with one item left: %v", err)
	}
	if err := checkSelection(Config{Skip: []int{77}}); err == nil || !strings.Contains(err.Error(), "--skip 77: no such matrix item") {
		t.Errorf("--skip of an unknown item: %v", err)
	}
}

// TestSkippedItemsAreReportedAsSkippedByRequest checks that the items
// --skip keeps from running are listed, in ID order, as skipped by
// request, and only those the rest of the selection would have run.
func TestSkippedItemsAreReportedAsSkippedByRequest(t *testing.T) {
	cfg := Config{Only: []int{1, 2, 3}, Skip: []int{3, 1, 4}}
	got := withSkipped(cfg, []reports.Item{{ID: 2, Status: reports.Passed}})
	var ids []int
	for _, it := range got {
		ids = append(ids, it.ID)
		if it.ID != 2 && (it.Status != reports.Skipped || it.Reason != SkippedByRequestReason || it.Title == "") {
			t.Errorf("item %d = %+v, want skipped by request with its title", it.ID, it)
		}
	}
	if len(ids) != 3 || ids[0] != 1 || ids[1] != 2 || ids[2] != 3 {
		t.Errorf("items %v, want [1 2 3]", ids)
	}
	if f := labelFilter(cfg); !strings.Contains(f, "!(item: containsAny {3,1,4})") {
		t.Errorf("label filter %q does not leave out the skipped items", f)
	}
}

// Selected lists the runnable items a selection runs, and Planned the
// planned items its document lists: those of its area, none with --only.
func TestSelectedAndPlanned(t *testing.T) {
	ids, err := Selected(Config{Area: "workspace", Skip: []int{1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range Items() {
		want := it.Runnable && it.Area == "workspace" && it.ID != 1
		if got := slices.Contains(ids, it.ID); got != want {
			t.Errorf("Selected(--area workspace --skip 1) has item %d: %v, want %v", it.ID, got, want)
		}
	}
	if _, err := Selected(Config{Only: []int{1}, Skip: []int{1}}); err == nil {
		t.Error("Selected accepts a selection that runs nothing")
	}
	all := Planned(Config{})
	for _, it := range Items() {
		if got := slices.Contains(all, it.ID); got == it.Runnable {
			t.Errorf("Planned() has item %d: %v, but it is runnable: %v", it.ID, got, it.Runnable)
		}
	}
	if p := Planned(Config{Only: []int{1}}); p != nil {
		t.Errorf("Planned(--only 1) = %v, want none", p)
	}
}
