package selftest

import (
	"slices"

	"github.com/galaxy-stack/conform/reports"
)

// Document is the self-test as a result document (kind "selftest"): the
// reference host's certification as its items, the kill matrix as its
// SelfTest block.
func (r *Result) Document() *reports.Document {
	d := &reports.Document{}
	if r.Reference != nil {
		c := *r.Reference
		c.Items = slices.Clone(r.Reference.Items)
		d = &c
	} else {
		d.SchemaVersion, d.Harness, d.MatrixVersion, d.Items = reports.SchemaVersion, reports.NewHarness(), r.MatrixVersion, []reports.Item{}
		d.Host.Command = "reference"
	}
	d.Kind = reports.KindSelfTest
	d.Interrupted = d.Interrupted || r.Interrupted
	st := &reports.SelfTest{Passed: r.Passed, Faults: []reports.KillRow{}, Items: []reports.KillColumn{}, Unchecked: []reports.Unchecked{}, Problems: slices.Clone(r.Problems)}
	if st.Problems == nil {
		st.Problems = []string{}
	}
	for _, f := range r.Faults {
		o := f.KillOutcome
		o.Ran, o.FailedItems, o.KilledBy, o.Collateral = orEmpty(o.Ran), orEmpty(o.FailedItems), orEmpty(o.KilledBy), orEmpty(o.Collateral)
		st.Faults = append(st.Faults, reports.KillRow{Name: f.Name, Kind: f.Kind, Description: f.Description, Sentences: orEmpty(f.Sentences),
			Targets: orEmpty(f.Targets), KillOutcome: o})
	}
	for _, it := range r.Items {
		it.Mutants, it.CoreFaults = orEmpty(it.Mutants), orEmpty(it.CoreFaults)
		st.Items = append(st.Items, it)
	}
	for _, v := range r.Variants {
		st.Variants = append(st.Variants, reports.AcceptRow{Name: v.Name, Choice: v.Choice, Description: v.Description, Status: v.Status,
			Ran: orEmpty(v.Ran), FailedItems: orEmpty(v.FailedItems), Rechecked: v.Rechecked, Error: v.Error})
	}
	for _, g := range r.Unchecked {
		st.Unchecked = append(st.Unchecked, reports.Unchecked{Key: g.Key, Text: g.Text})
	}
	d.SelfTest = st
	d.Tally()
	return d
}

// orEmpty is s, or an empty slice for nil: the document lists none as [].
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
