package shard

import (
	_ "embed"
	"encoding/json"
	"fmt"

	"github.com/galaxy-stack/conform/matrix"
)

// costsJSON is the recorded cost of each item: the milliseconds it took in
// a serial certification of the reference host on linux/amd64, written by
// gencosts (see its doc). Only the ratios matter: they balance the parts.
//
//go:embed costs.json
var costsJSON []byte

// Recorded returns the embedded cost table ([costsJSON]); an item added
// since it was written counts as the mean of the others ([Partition]).
func Recorded() (Costs, error) {
	var table map[string]int64
	if err := json.Unmarshal(costsJSON, &table); err != nil {
		return nil, fmt.Errorf("shard: embedded costs.json: %w", err)
	}
	c := make(Costs, len(table))
	for ref, ms := range table {
		id, err := matrix.ParseRef(ref)
		if err != nil {
			return nil, fmt.Errorf("shard: embedded costs.json: %w", err)
		}
		c[id] = ms
	}
	return c, nil
}
