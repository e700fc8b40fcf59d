// Command gencosts writes the cost table package shard embeds
// (costs.json) from result documents of serial runs:
//
//	conform certify --host reference --json-report run.json
//	go run ./matrix/shard/gencosts run.json > matrix/shard/costs.json
//
// The table maps each item's reference to the milliseconds it took, the
// longest over the documents given.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/galaxy-stack/conform/matrix"
	"github.com/galaxy-stack/conform/matrix/shard"
	"github.com/galaxy-stack/conform/reports"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: gencosts RESULT.json... > matrix/shard/costs.json")
		os.Exit(2)
	}
	var docs []*reports.Document
	for _, f := range os.Args[1:] {
		ds, err := reports.ReadFile(f, reports.DefaultMaxDocumentSize)
		if err != nil {
			fmt.Fprintln(os.Stderr, "gencosts:", err)
			os.Exit(1)
		}
		docs = append(docs, ds...)
	}
	table := map[string]int64{}
	for id, ms := range shard.CostsOf(docs...) {
		table[matrix.RefOf(id)] = ms
	}
	b, err := json.MarshalIndent(table, "", "  ") // map keys are sorted
	if err != nil {
		fmt.Fprintln(os.Stderr, "gencosts:", err)
		os.Exit(1)
	}
	fmt.Printf("%s\n", b)
}
