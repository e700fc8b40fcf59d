package reports

import (
	"bytes"
	"fmt"
	"io"
	"testing"
)

// benchItems is the size of the documents of the benchmarks.
const benchItems = 100_000

// bigDoc is a certification document of n items from first, one in ten
// failed, in seven areas.
func bigDoc(first, n int) *Document {
	d := &Document{SchemaVersion: SchemaVersion, Kind: KindCertify, Harness: Harness{Name: "conform", Version: "x"},
		Host: Host{Command: "h"}, OS: "linux", Arch: "amd64", MatrixVersion: "0", Items: make([]Item, 0, n)}
	for id := first; id < first+n; id++ {
		it := Item{ID: id, Name: fmt.Sprint("n", id), Title: fmt.Sprint("item ", id), Area: fmt.Sprint("area", id%7), Status: Passed, DurationMs: 1}
		if id%10 == 0 {
			it.Status, it.Reason, it.Repro = Failed, "the host answered <nothing> & left", fmt.Sprint("conform certify --only ", id)
		}
		d.Items = append(d.Items, it)
	}
	d.Tally()
	return d
}

// BenchmarkMerge merges two shards of half the items each, given in
// reverse order so that the merged items must be sorted.
func BenchmarkMerge(b *testing.B) {
	docs := []MergeInput{{"b.json", bigDoc(benchItems/2+1, benchItems/2)}, {"a.json", bigDoc(1, benchItems/2)}}
	b.ReportAllocs()
	for b.Loop() {
		m, err := Merge(docs)
		if err != nil || len(m.Documents[0].Items) != benchItems {
			b.Fatal(err)
		}
	}
}

func BenchmarkRender(b *testing.B) {
	d := bigDoc(1, benchItems)
	for _, r := range []struct {
		name   string
		render Renderer
	}{{"markdown", RenderMarkdown}, {"html", RenderHTML}, {"junit", RenderJUnit}} {
		b.Run(r.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := r.render(io.Discard, d); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRead reads (and checks against the schema) a document of
// benchItems items.
func BenchmarkRead(b *testing.B) {
	data := docJSON(b, bigDoc(1, benchItems))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(bytes.NewReader(data), "bench", DefaultMaxDocumentSize); err != nil {
			b.Fatal(err)
		}
	}
}
