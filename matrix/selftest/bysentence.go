package selftest

import (
	"slices"

	"github.com/galaxy-stack/conform/matrix"
)

// A SentenceAttack is one sentence of "Required host guarantees" with the
// faults of a self-test that break it: how many ways the run attacked the
// guarantee, and how each attack ended.
type SentenceAttack struct {
	matrix.Guarantee
	// Uncheckable is set when no check can observe the sentence through
	// the protocol (matrix.UncheckableSentences).
	Uncheckable bool `json:"uncheckable,omitempty"`
	// Attacks are the faults whose sentences include the key, mutants
	// first, each kind in the kill matrix's order.
	Attacks []Attack `json:"attacks"`
}

// An Attack is one fault of a SentenceAttack and how the self-test ended
// for it: killed, collateral, survived, untargeted or error.
type Attack struct {
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	Status string `json:"status"`
}

// BySentence groups the kill matrix by guarantee sentence, in the seed's
// order: for every sentence, the faults of the run (controls, which break
// no sentence, aside) whose sentence keys include it.
func (r *Result) BySentence() []SentenceAttack {
	traces := matrix.Traces()
	out := make([]SentenceAttack, 0, len(traces))
	for _, tr := range traces {
		sa := SentenceAttack{Guarantee: tr.Guarantee, Uncheckable: tr.Uncheckable != nil, Attacks: []Attack{}}
		for _, kind := range []string{KindMutant, KindCore} {
			for _, f := range r.Faults {
				if f.Kind == kind && slices.Contains(f.Sentences, tr.Key) {
					sa.Attacks = append(sa.Attacks, Attack{Name: f.Name, Kind: f.Kind, Status: f.Status})
				}
			}
		}
		out = append(out, sa)
	}
	return out
}
