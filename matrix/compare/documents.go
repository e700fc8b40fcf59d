package compare

import (
	"fmt"

	"github.com/galaxy-stack/conform/matrix/golden"

	"github.com/galaxy-stack/conform/reports"
)

// DocumentsNote is the Note of a comparison of result documents.
const DocumentsNote = "result documents hold replay hashes, not transcripts: run `conform compare --host A --host B SCENARIO` to see the first divergent event of a scenario that differs"

// Documents compares result documents made on other machines or systems:
// the replay hashes of the items they share, by scenario file (or item
// name). A scenario that makes workspace content machine-specific on
// purpose (golden.Volatile) is listed but not counted as a mismatch: the
// documents' hashes cover that content unmasked. names name the documents' hosts, one per document. An item
// without a replay hash, not run or not applicable is left out for that
// document.
func Documents(names []string, docs []*reports.Document) (*Result, error) {
	if len(docs) < 2 {
		return nil, fmt.Errorf("compare: want two result documents or more, got %d", len(docs))
	}
	if len(names) != len(docs) {
		return nil, fmt.Errorf("compare: %d names for %d documents", len(names), len(docs))
	}
	var keys []string
	hashes := map[string][]string{}
	statuses := map[string][]string{}
	for i, d := range docs {
		for _, it := range d.Items {
			k := it.File
			if k == "" {
				k = it.Name
			}
			if _, seen := hashes[k]; !seen {
				keys = append(keys, k)
				hashes[k] = make([]string, len(docs))
				statuses[k] = make([]string, len(docs))
			}
			statuses[k][i] = it.Status
			if it.Status != reports.Skipped && it.Status != reports.NotApplicable {
				hashes[k][i] = it.ReplayHash
			}
		}
	}
	res := &Result{Hosts: names, Scenarios: []Scenario{}, Note: DocumentsNote}
	for _, k := range keys {
		s := Scenario{File: k, Hashes: hashes[k], Statuses: statuses[k], Equal: true}
		var in []int
		for i, h := range s.Hashes {
			if h == "" {
				s.NotApplicable = append(s.NotApplicable, names[i])
				if s.Statuses[i] == "" {
					s.Statuses[i] = "not run"
				}
				continue
			}
			in = append(in, i)
		}
		s.Compared = len(in)
		if len(in) >= 2 {
			s.group(names, in)
		}
		s.Volatile = golden.VolatileOf(k)
		switch {
		case !s.Equal && s.Volatile == nil:
			res.Mismatches++
		case s.Compared < 2:
			res.NotCompared++
		}
		res.Scenarios = append(res.Scenarios, s)
	}
	return res, nil
}
