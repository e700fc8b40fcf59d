package expect

import (
	"strings"
	"testing"
	"time"

	"github.com/galaxy-stack/conform/reports"
)

const sample = `{
  "expectations": [
    {"item": "1", "reason": "lists dotfiles", "owner": "ana", "expires": "2030-01-31"},

    {
      "item": "R3",
      "reason": "no network",
      "owner": "bo",
      "expires": "2030-01-31",
      "message": "timeout"
    }
  ]
}
`

func TestParseRecordsEachEntrysLine(t *testing.T) {
	f, err := Parse("x.json", []byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Entries) != 2 {
		t.Fatalf("%d entries, want 2", len(f.Entries))
	}
	if e := f.Entries[0]; e.Line != 3 || e.ID != 1 || e.Owner != "ana" {
		t.Errorf("entry 0 = %+v, want line 3, ID 1, owner ana", e)
	}
	if e := f.Entries[1]; e.Line != 5 || e.ID != 103 || e.Message != "timeout" {
		t.Errorf("entry 1 = %+v, want line 5, ID 103, message timeout", e)
	}
}

func TestParseValidatesAgainstTheSchema(t *testing.T) {
	for name, in := range map[string]string{
		"no owner":      `{"expectations": [{"item": "1", "reason": "r", "expires": "2030-01-01"}]}`,
		"bad date":      `{"expectations": [{"item": "1", "reason": "r", "owner": "o", "expires": "2030-13-01"}]}`,
		"bad item":      `{"expectations": [{"item": "one", "reason": "r", "owner": "o", "expires": "2030-01-01"}]}`,
		"unknown field": `{"expectations": [{"item": "1", "reason": "r", "owner": "o", "expires": "2030-01-01", "until": "x"}]}`,
		"no list":       `{}`,
		"not JSON":      `{"expectations": [`,
	} {
		if _, err := Parse("x.json", []byte(in)); err == nil || !strings.Contains(err.Error(), "x.json") {
			t.Errorf("%s: err = %v, want an error naming the file", name, err)
		}
	}
}

func doc(items ...reports.Item) *reports.Document {
	d := &reports.Document{Items: items}
	d.Tally()
	return d
}

func known(id int) bool { return id < 60 || id == 103 }

func noChecks(int) []string { return nil }

var today = time.Date(2030, 1, 31, 12, 0, 0, 0, time.UTC)

func TestApplyMarksExpectedFailures(t *testing.T) {
	f, _ := Parse("x.json", []byte(sample))
	d := doc(
		reports.Item{ID: 1, Status: reports.Failed, Reason: "found .git"},
		reports.Item{ID: 103, Status: reports.Failed, Reason: "fetch: timeout after 5s"},
		reports.Item{ID: 2, Status: reports.Failed, Reason: "other"},
	)
	if p := f.Apply(d, known, noChecks, today); len(p) != 0 {
		t.Fatalf("problems %v, want none", p)
	}
	if x := d.Items[0].Expected; x == nil || x.Source != "x.json:3" || x.Owner != "ana" || x.Expires != "2030-01-31" {
		t.Errorf("item 1 expected = %+v", x)
	}
	if d.Items[1].Expected == nil || d.Items[2].Expected != nil {
		t.Errorf("R3 expected %v, 2 expected %v; want R3 only", d.Items[1].Expected, d.Items[2].Expected)
	}
	if s := d.Summary; s.Failed != 3 || s.ExpectedFailures != 2 || s.Unexpected() != 1 {
		t.Errorf("summary %+v, want 3 failed, 2 expected", s)
	}
}

func TestApplyNamesTheLineOfEachBadEntry(t *testing.T) {
	in := `{"expectations": [
  {"item": "1", "reason": "r", "owner": "o", "expires": "2030-01-31"},
  {"item": "2", "reason": "r", "owner": "o", "expires": "2030-01-30"},
  {"item": "77", "reason": "r", "owner": "o", "expires": "2030-01-31"},
  {"item": "R3", "reason": "r", "owner": "o", "expires": "2030-01-31", "message": "timeout"},
  {"item": "5", "reason": "r", "owner": "o", "expires": "2030-01-31"}
]}`
	f, err := Parse("e.json", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	d := doc(
		reports.Item{ID: 1, Status: reports.Passed},
		reports.Item{ID: 2, Status: reports.Failed, Reason: "x"},
		reports.Item{ID: 103, Status: reports.Failed, Reason: "refused"},
	)
	var got []string
	for _, p := range f.Apply(d, known, noChecks, today) {
		got = append(got, p.Error())
	}
	want := []string{
		"e.json:2: item 1: no longer fails (status passed); delete this entry",
		"e.json:3: item 2: expired on 2030-01-30 (owner o)",
		"e.json:4: item 77: no runnable item 77",
		`e.json:5: item R3: failed, but its reason does not contain "timeout"`,
	}
	if len(got) != len(want) {
		t.Fatalf("problems:\n%s\nwant %d (item 5 did not run: neither used nor stale)", strings.Join(got, "\n"), len(want))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("problem %d = %q, want prefix %q", i, got[i], want[i])
		}
	}
	for _, it := range d.Items {
		if it.Expected != nil {
			t.Errorf("item %d marked expected by a bad entry", it.ID)
		}
	}
}
