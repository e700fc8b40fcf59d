package replay

import (
	"fmt"

	"github.com/google/go-cmp/cmp"
)

// A Divergence is where two transcripts first differ.
type Divergence struct {
	// Index is the 0-based index of the first divergent event, or -1 when
	// every event agrees and the final sections differ (or the headers).
	Index int
	// Where names it: "event 12 (tool_result)", "final", "header".
	Where string
	// Diff is go-cmp's diff of the divergent part, "-" the first
	// transcript, "+" the second.
	Diff string
}

// String says where the transcripts diverge and shows the diff.
func (d *Divergence) String() string {
	return fmt.Sprintf("the transcripts first differ at %s:\n%s", d.Where, d.Diff)
}

// Diverge returns where a and b first differ, or nil when they are equal.
func Diverge(a, b *Transcript) *Divergence {
	if a.Version != b.Version || a.Fixture != b.Fixture || a.RunID != b.RunID {
		type header struct {
			Version        int
			Fixture, RunID string
		}
		return &Divergence{Index: -1, Where: "header", Diff: cmp.Diff(header{a.Version, a.Fixture, a.RunID}, header{b.Version, b.Fixture, b.RunID})}
	}
	n := max(len(a.Events), len(b.Events))
	for i := range n {
		var ea, eb *Event
		if i < len(a.Events) {
			ea = &a.Events[i]
		}
		if i < len(b.Events) {
			eb = &b.Events[i]
		}
		if !cmp.Equal(ea, eb) {
			kind := "missing"
			if ea != nil {
				kind = ea.Kind
			} else if eb != nil {
				kind = eb.Kind
			}
			return &Divergence{Index: i, Where: fmt.Sprintf("event %d (%s)", i+1, kind), Diff: cmp.Diff(ea, eb)}
		}
	}
	if !cmp.Equal(a.Final, b.Final) {
		return &Divergence{Index: -1, Where: "final", Diff: cmp.Diff(a.Final, b.Final)}
	}
	return nil
}
