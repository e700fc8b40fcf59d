package canon

import (
	"fmt"
	"testing"
)

// benchRecord is shaped like a checkpoint: structs in field order, short
// strings, small integers, slices of records and a map.
type benchRecord struct {
	Goal    string            `json:"goal"`
	ID      string            `json:"id"`
	Items   []benchItem       `json:"items"`
	Labels  map[string]string `json:"labels"`
	Version int               `json:"version"`
}

type benchItem struct {
	Done     bool     `json:"done"`
	Evidence []string `json:"evidence"`
	Name     string   `json:"name"`
	Score    float64  `json:"score"`
	Z        string   `json:"z,omitempty"`
}

func benchValue() benchRecord {
	r := benchRecord{Goal: "make the parser strict about trailing data", ID: "run-42",
		Labels: map[string]string{"team": "core", "area": "canon", "tier": "1"}, Version: 3}
	for i := range 24 {
		r.Items = append(r.Items, benchItem{Done: i%2 == 0, Evidence: []string{fmt.Sprintf("call-%d", i), "read_file"},
			Name: fmt.Sprintf("step %d: check the \"%d\" case", i, i), Score: float64(i) / 8})
	}
	return r
}

// BenchmarkMarshal measures Marshal of a checkpoint-shaped struct.
func BenchmarkMarshal(b *testing.B) {
	v := benchValue()
	out, err := Marshal(v)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(out)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Marshal(v); err != nil {
			b.Fatal(err)
		}
	}
}
