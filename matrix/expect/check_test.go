package expect

import (
	"slices"
	"strings"
	"testing"

	"github.com/galaxy-stack/conform/reports"
)

func itemChecks(id int) []string {
	if id == 1 {
		return []string{"inspect", "paged-list", "other"}
	}
	return nil
}

func failedItem(checks ...string) reports.Item {
	it := reports.Item{ID: 1, Status: reports.Failed, Reason: "identity mismatch"}
	for _, c := range checks {
		it.FailedChecks = append(it.FailedChecks, reports.FailedCheck{Check: c, Sentences: []string{"W1"}, Cause: reports.CauseAssertion})
	}
	return it
}

// Entries that name checks expect an item's failure only when they name
// every check it failed on; an entry whose check did not fail, or that
// names no check of the item, fails the run naming its line.
func TestApplyChecks(t *testing.T) {
	in := `{"expectations": [
  {"item": "1", "check": "inspect", "reason": "ids renamed", "owner": "ana", "expires": "2030-03-01"},
  {"item": "1", "check": "paged-list", "reason": "paging", "owner": "bo", "expires": "2030-02-01"}
]}`
	f, err := Parse("c.json", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	// Both failed checks named: expected, with both sources and checks.
	d := doc(failedItem("inspect", "paged-list"))
	if p := f.Apply(d, known, itemChecks, today); len(p) != 0 {
		t.Fatalf("problems %v, want none", p)
	}
	x := d.Items[0].Expected
	if x == nil || x.Source != "c.json:2, c.json:3" || x.Owner != "ana" || x.Expires != "2030-02-01" || !slices.Equal(x.Checks, []string{"inspect", "paged-list"}) {
		t.Fatalf("expected = %+v", x)
	}
	// A third failed check no entry names: not expected, and no entry is
	// stale.
	d = doc(failedItem("inspect", "paged-list", "other"))
	if p := f.Apply(d, known, itemChecks, today); len(p) != 0 || d.Items[0].Expected != nil {
		t.Fatalf("problems %v, expected %+v; want neither", p, d.Items[0].Expected)
	}
	// Only one check fails: the other entry is stale, named by its line.
	d = doc(failedItem("inspect"))
	p := f.Apply(d, known, itemChecks, today)
	if len(p) != 1 || !strings.HasPrefix(p[0].Error(), `c.json:3: item 1 check "paged-list": no longer fails (the item fails on "inspect"); delete this entry`) {
		t.Fatalf("problems %v, want the paged-list entry stale", p)
	}
	if d.Items[0].Expected == nil {
		t.Error("the failure of the one check an entry names is not expected")
	}
	// An unknown check.
	bad, err := Parse("u.yaml", []byte("expectations:\n  - {item: 1, check: nope, reason: r, owner: o, expires: 2030-12-31}\n"))
	if err != nil {
		t.Fatal(err)
	}
	d = doc(failedItem("inspect"))
	p = bad.Apply(d, known, itemChecks, today)
	if len(p) != 1 || !strings.Contains(p[0].Error(), `u.yaml:2: item 1 check "nope": item 1 has no check "nope"`) || d.Items[0].Expected != nil {
		t.Fatalf("problems %v, expected %+v", p, d.Items[0].Expected)
	}
}
