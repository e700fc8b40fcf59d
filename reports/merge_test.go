package reports

import (
	"fmt"
	"strings"
	"testing"
)

// shard is a certification document of host h holding items ids.
func shard(h string, ids ...int) *Document {
	d := &Document{SchemaVersion: SchemaVersion, Kind: KindCertify, Harness: Harness{Name: "conform", Version: "x"},
		Host: Host{Command: h}, OS: "linux", Arch: "amd64", MatrixVersion: "0"}
	for _, id := range ids {
		d.Items = append(d.Items, Item{ID: id, Name: fmt.Sprint("n", id), Title: "t", Area: "a", Status: Passed})
	}
	d.Tally()
	return d
}

func TestMergeShards(t *testing.T) {
	a, b := shard("h", 3, 1, 20), shard("h", 2, 3, 10)
	b.Items = append(b.Items, Item{ID: 101, Ref: "R1", Title: "t", Area: "a", Status: Failed, Reason: "r", Repro: "x"})
	other := shard("other", 5)
	m, err := Merge([]*Document{a, other, b})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Documents) != 2 || m.Documents[1].Host.Command != "other" {
		t.Fatalf("merged into %d documents, want the shards of h, then other", len(m.Documents))
	}
	var refs []string
	for _, it := range m.Documents[0].Items {
		refs = append(refs, ItemRef(it))
	}
	if got := strings.Join(refs, " "); got != "1 2 3 10 20 R1" {
		t.Errorf("merged items = %s, want 1 2 3 10 20 R1", got)
	}
	if s := m.Documents[0].Summary; s != (Summary{Passed: 5, Failed: 1}) {
		t.Errorf("merged summary = %+v", s)
	}
	if len(a.Items) != 3 || a.Items[0].ID != 3 {
		t.Errorf("Merge changed its input: %+v", a.Items)
	}

	c := shard("h", 3)
	c.Items[0].Status, c.Items[0].Reason, c.Items[0].Repro = Failed, "r", "x"
	if _, err := Merge([]*Document{a, c}); err == nil || !strings.Contains(err.Error(), "item 3 of host h is passed in one document and failed in another") {
		t.Errorf("Merge of conflicting shards = %v", err)
	}
}

func TestItemOrder(t *testing.T) {
	refs := []string{"fx-b", "10-ten", "R1", "2", "1-one", "1", "fx-a", "99999999999999999999999-long"}
	items := make([]Item, len(refs))
	for i, r := range refs {
		items[i] = Item{Fixture: r}
	}
	sortItems(items)
	var got []string
	for _, it := range items {
		got = append(got, it.Fixture)
	}
	want := "1 1-one 2 10-ten 99999999999999999999999-long R1 fx-a fx-b"
	if strings.Join(got, " ") != want {
		t.Errorf("order = %s, want %s", strings.Join(got, " "), want)
	}
}
