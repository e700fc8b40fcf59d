package reports

import (
	"fmt"
	"os"
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

// inputs names each document shardN.json, N from 1.
func inputs(docs ...*Document) []MergeInput {
	in := make([]MergeInput, len(docs))
	for i, d := range docs {
		in[i] = MergeInput{Name: fmt.Sprintf("shard%d.json", i+1), Doc: d}
	}
	return in
}

func TestMergeShards(t *testing.T) {
	a, b := shard("h", 3, 1, 20), shard("h", 2, 3, 10)
	b.Items = append(b.Items, Item{ID: 101, Ref: "R1", Title: "t", Area: "a", Status: Failed, Reason: "r", Repro: "x"})
	b.Summary = Summary{Passed: 99} // a lie: the merged summary is counted
	a.Planned, b.Planned = []int{30, 12}, []int{12}
	other := shard("other", 5)
	m, err := Merge(inputs(a, other, b))
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
	if p := fmt.Sprint(m.Documents[0].Planned); p != "[12 30]" {
		t.Errorf("merged planned = %s, want the union [12 30]", p)
	}
	if len(a.Items) != 3 || a.Items[0].ID != 3 || len(a.Planned) != 2 {
		t.Errorf("Merge changed its input: %+v", a)
	}
	if !AnyFailed(m.Documents...) || AnyFailed(m.Documents[1]) {
		t.Errorf("AnyFailed is wrong on the merged documents")
	}
}

func TestMergeConflict(t *testing.T) {
	a, c := shard("h", 1, 3), shard("h", 3)
	c.Items[0].Status, c.Items[0].Reason, c.Items[0].Repro = Failed, "r", "x"
	_, err := Merge(inputs(a, shard("h", 2), c))
	if err == nil || !strings.Contains(err.Error(), "item 3 of host h is passed in shard1.json and failed in shard3.json") {
		t.Errorf("Merge of conflicting shards = %v", err)
	}
}

func TestMergeMismatchedShards(t *testing.T) {
	for _, c := range []struct {
		name, want string
		edit       func(d *Document)
	}{
		{"harness version", `different harness versions ("x" and "y")`, func(d *Document) { d.Harness.Version = "y" }},
		{"harness commit", `different harness builds ("no commit" and "abc (modified)")`, func(d *Document) { d.Harness.Commit, d.Harness.Modified = "abc", true }},
		{"matrix version", `different matrix versions ("0" and "1")`, func(d *Document) { d.MatrixVersion = "1" }},
		{"host name", `different host names ("n" and "m")`, func(d *Document) { d.Host.Name = "m" }},
		{"tools", `different advertised tools ("[a b]" and "[a]")`, func(d *Document) { d.Host.Tools = []string{"a"} }},
		{"self-test", "both self-test documents of h", func(d *Document) {}},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, b := shard("h", 1), shard("h", 2)
			a.Host.Name, a.Host.Tools = "n", []string{"a", "b"}
			if c.name == "self-test" {
				a.Kind, b.Kind = KindSelfTest, KindSelfTest
			}
			c.edit(b)
			_, err := Merge(inputs(a, b))
			if err == nil || !strings.Contains(err.Error(), "shard1.json and shard2.json") || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Merge = %v, want an error naming both files and %s", err, c.want)
			}
		})
	}
	// A shard whose host never answered initialize agrees with the others,
	// and the merged document says what the host is.
	a, b := shard("h", 1), shard("h", 2)
	b.Host.Name, b.Host.Tools = "n", []string{"a"}
	m, err := Merge(inputs(a, b))
	if err != nil || len(m.Documents) != 1 || m.Documents[0].Host.Name != "n" || len(m.Documents[0].Host.Tools) != 1 {
		t.Errorf("Merge of a shard without host identity = %v, %+v", err, m)
	}
	// The same host on another system, or another build of it, is another
	// column of the cross document, not a mismatched shard.
	c, d := shard("h", 1), shard("h", 1)
	c.OS, d.Host.BinarySHA256 = "darwin", "sha256:"+strings.Repeat("0", 64)
	if m, err := Merge(inputs(a, c, d)); err != nil || len(m.Documents) != 3 {
		t.Errorf("Merge of one host on two systems and builds = %v, %d documents; want 3", err, len(m.Documents))
	}
}

func TestWriteMergedValidates(t *testing.T) {
	dir := t.TempDir()
	one, _ := Merge(inputs(shard("h", 1), shard("h", 2)))
	if err := WriteMerged(dir+"/one.json", one); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(dir + "/one.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := Validate(data); err != nil {
		t.Errorf("the shards' merged document is not a valid result document: %v", err)
	}
	if strings.Contains(string(data), `"merge"`) {
		t.Errorf("the shards of one host were written as a cross document:\n%s", data)
	}

	cross, _ := Merge(inputs(shard("h", 1), shard("other", 2)))
	if err := WriteMerged(dir+"/cross.json", cross); err != nil {
		t.Fatal(err)
	}
	data, err = os.ReadFile(dir + "/cross.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := ValidateMerge(data); err != nil {
		t.Errorf("the cross document is not valid against its schema: %v", err)
	}
	if err := Validate(data); err == nil {
		t.Errorf("the result schema accepts a cross document")
	}
	docs, err := DecodeAny(data)
	if err != nil || len(docs) != 2 {
		t.Errorf("DecodeAny of the cross document = %d documents, %v", len(docs), err)
	}

	// The cross document's schema refuses what it does not know, and
	// checks the documents it holds.
	for _, bad := range []struct{ name, data, want string }{
		{"extra field", strings.Replace(string(data), `"kind": "merge",`, `"kind": "merge", "x": 1,`, 1), "additional properties 'x'"},
		{"no documents", `{"schemaVersion": "2", "kind": "merge", "documents": []}`, "minItems"},
		{"bad document", strings.Replace(string(data), `"status": "passed"`, `"status": "fine"`, 1), "/documents/0/items/0/status"},
	} {
		err := ValidateMerge([]byte(bad.data))
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: ValidateMerge = %v, want %q", bad.name, err, bad.want)
		}
	}
	if _, err := DecodeAny([]byte(strings.Replace(string(data), `"kind": "merge",`, `"kind": "merge", "x": 1,`, 1))); err == nil {
		t.Errorf("DecodeAny accepts a cross document with an unknown field")
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
