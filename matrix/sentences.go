package matrix

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/galaxy-stack/conform/matrix/kit"
)

// A Sentence is one sentence of the contract a check can enforce: a
// "Required host guarantees" sentence of the seed (key "W5"), or a line of
// the seed's minimum deterministic test matrix, which is the item's title
// (key "L21"; "LR2" for an extension item).
type Sentence struct {
	Key string `json:"key"`
	// Source says where the sentence stands.
	Source string `json:"source"`
	Text   string `json:"text"`
}

// Sources of sentences.
const (
	sourceGuarantee = "seed HOST_CONFORMANCE, Required host guarantees: "
	sourceLine      = "seed HOST_CONFORMANCE, Minimum deterministic test matrix, line "
	sourceExtension = "seed public research profile, item "
	sourceFormat    = "seed project formatting lifecycle, Regression boundary: "
	sourceFormatRow = "seed project formatting lifecycle, item "
)

// Sentences returns every sentence a check may name: the guarantees in
// the seed's order, then the matrix lines in item order.
func Sentences() []Sentence {
	var out []Sentence
	for _, g := range append(Guarantees(), formatSentences...) {
		src := sourceGuarantee + g.Section
		if g.Section == formatSection {
			src = sourceFormat + g.Key
		}
		out = append(out, Sentence{Key: g.Key, Source: src, Text: g.Text})
	}
	for _, it := range Items() {
		src := sourceLine + it.Ref()
		switch {
		case it.ID > FormatBase:
			src = sourceFormatRow + it.Ref()
		case it.ID > ExtensionBase:
			src = sourceExtension + it.Ref()
		}
		out = append(out, Sentence{Key: LineKey(it.ID), Source: src, Text: it.Title})
	}
	return out
}

// LineKey is the sentence key of item id's matrix line: "L21", "LR2".
func LineKey(id int) string { return "L" + RefOf(id) }

// IsLineKey reports whether key names a matrix line rather than a
// guarantee sentence.
func IsLineKey(key string) bool {
	_, isGuarantee := guaranteeByKey(key)
	return strings.HasPrefix(key, "L") && !isGuarantee
}

// SentenceByKey returns the sentence with key.
func SentenceByKey(key string) (Sentence, bool) {
	for _, s := range Sentences() {
		if s.Key == key {
			return s, true
		}
	}
	return Sentence{}, false
}

// checks lists every runnable item's specs once: each body runs on a
// listing bench, which records what it declares and runs nothing.
var checks = sync.OnceValue(func() map[int][]kit.Spec {
	out := map[int][]kit.Spec{}
	for id, body := range bodies {
		it := registry[id]
		b := kit.ListingBench()
		body(b.For(it.ID, it.Ref(), it.ScenarioDir()))
		out[id] = b.Specs()
		for _, err := range b.Bugs() {
			registrationErrors = append(registrationErrors, err)
		}
	}
	return out
})

// Checks returns the specs item id declares, each with the keys of the
// sentences it enforces, in declaration order; nil for a planned item.
func Checks(id int) []kit.Spec {
	specs := checks()[id]
	out := make([]kit.Spec, len(specs))
	for i, s := range specs {
		s.Sentences = slices.Clone(s.Sentences)
		out[i] = s
	}
	return out
}

// traceErrors returns what is wrong with the traces of item it's checks:
// a check that names no sentence or an unknown one, a check of a
// host-scoped item that names only matrix lines, and an item whose
// Guarantees are not exactly the guarantee sentences its checks name.
func traceErrors(it Item) []error {
	var errs []error
	named := map[string]bool{}
	specs := Checks(it.ID)
	if it.Runnable && len(specs) == 0 {
		errs = append(errs, fmt.Errorf("item %s declares no checks", it.Ref()))
	}
	for _, s := range specs {
		if len(s.Sentences) == 0 {
			errs = append(errs, fmt.Errorf("item %s, check %q (%s) names no contract sentence", it.Ref(), s.Name, s.Source))
		}
		guarantee := false
		for _, k := range s.Sentences {
			if _, ok := SentenceByKey(k); !ok {
				errs = append(errs, fmt.Errorf("item %s, check %q (%s) names %q, which is no sentence (a guarantee key of matrix/guarantees.go, or L and an item reference for a matrix line)", it.Ref(), s.Name, s.Source, k))
				continue
			}
			if !IsLineKey(k) {
				guarantee = true
				named[k] = true
			}
		}
		if it.Scope == ScopeHost && !guarantee {
			errs = append(errs, fmt.Errorf("item %s, check %q (%s) certifies a host duty but names only matrix lines; name the guarantee sentence it enforces", it.Ref(), s.Name, s.Source))
		}
	}
	var fromChecks []string
	for k := range named {
		fromChecks = append(fromChecks, k)
	}
	declared := slices.Clone(it.Guarantees)
	sort.Strings(fromChecks)
	sort.Strings(declared)
	if it.Runnable && !slices.Equal(fromChecks, declared) {
		errs = append(errs, fmt.Errorf("item %s declares the guarantees %v, but its checks name %v", it.Ref(), declared, fromChecks))
	}
	return errs
}
