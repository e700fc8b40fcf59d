package redact

import (
	"encoding/json"
	"slices"
	"strings"
)

// MinValueLen is the length under which a secret value is not redacted by
// value: shorter values ("1", "true", "dev") occur in ordinary text.
const MinValueLen = 6

// A Redactor removes the secrets it knows from text: the values it holds,
// by exact match, then the shapes of [Kinds]. The zero Redactor redacts by
// shape alone. A Redactor is safe for concurrent use.
type Redactor struct {
	values  *strings.Replacer // nil: no values
	needles []string          // what values replaces
	names   []string          // the variables whose values are held, sorted
}

// A Secret is a value to redact and the name of the variable that holds it.
type Secret struct {
	Name, Value string
}

// New returns a redactor of the given secret values. A value shorter than
// [MinValueLen], or one that a placeholder contains, is left out; of
// several variables with one value, the first name in sorted order names
// it.
func New(secrets ...Secret) *Redactor {
	secrets = slices.Clone(secrets)
	slices.SortFunc(secrets, func(a, b Secret) int { return strings.Compare(a.Name, b.Name) })
	type needle struct{ old, new string }
	var needles []needle
	seen := map[string]bool{}
	r := &Redactor{}
	for _, s := range secrets {
		if len(s.Value) < MinValueLen || seen[s.Value] || inPlaceholder(s.Value, s.Name) {
			continue
		}
		seen[s.Value] = true
		r.names = append(r.names, s.Name)
		ph := "[REDACTED:$" + s.Name + "]"
		needles = append(needles, needle{s.Value, ph})
		// The value as it appears inside a JSON string, when that differs
		// (a quote, a backslash, a control character).
		if q, err := json.Marshal(s.Value); err == nil {
			if esc := string(q[1 : len(q)-1]); esc != s.Value && !seen[esc] {
				seen[esc] = true
				needles = append(needles, needle{esc, ph})
			}
		}
	}
	if len(needles) == 0 {
		return r
	}
	// strings.Replacer tries the old strings in argument order at each
	// position: the longest first, so that a value that begins another is
	// not preferred to it.
	slices.SortStableFunc(needles, func(a, b needle) int { return len(b.old) - len(a.old) })
	pairs := make([]string, 0, 2*len(needles))
	for _, n := range needles {
		pairs = append(pairs, n.old, n.new)
		r.needles = append(r.needles, n.old)
	}
	r.values = strings.NewReplacer(pairs...)
	return r
}

// inPlaceholder reports whether v occurs in a placeholder, where
// replacing it would make redaction run away on its own output.
func inPlaceholder(v, name string) bool {
	if strings.Contains("[REDACTED:$"+name+"]", v) {
		return true
	}
	for _, k := range Kinds() {
		if strings.Contains("[REDACTED:"+k+"]", v) {
			return true
		}
	}
	return false
}

// Names returns the names of the variables whose values r redacts, sorted.
func (r *Redactor) Names() []string { return slices.Clone(r.names) }

// Values returns s with every secret value r holds replaced by
// [REDACTED:$NAME], and no shape redacted: for text that is data, such as
// a scenario, where a token-shaped string can be what is tested.
func (r *Redactor) Values(s string) string {
	if r == nil || r.values == nil {
		return s
	}
	// strings.Index is much faster than the replacer: text without any
	// value, most text, skips it.
	for _, n := range r.needles {
		if strings.Contains(s, n) {
			return r.values.Replace(s)
		}
	}
	return s
}

// String returns s with every secret r knows replaced: each value by
// [REDACTED:$NAME], then each match of a rule by [REDACTED:<kind>]. Text
// without secrets is returned unchanged.
func (r *Redactor) String(s string) string {
	return shapes(r.Values(s))
}
