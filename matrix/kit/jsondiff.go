package kit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/google/go-cmp/cmp"
)

// jsonDiffLines is the most lines of a structural diff a reason shows.
const jsonDiffLines = 24

// jsonDiff says how the JSON document got differs from want, for a
// reason: a go-cmp diff of the decoded values (-want +got), trimmed to
// what differs, each line cut; or, when the values are the same, where
// the text differs (member order, escapes, spacing). A document that does
// not decode is shown cut.
func jsonDiff(want, got []byte) string {
	w, werr := decodeJSON(want)
	g, gerr := decodeJSON(got)
	switch {
	case gerr != nil:
		return "got a document that is not JSON (" + gerr.Error() + "): " + cutLine(string(got))
	case werr != nil:
		return "want is not JSON (" + werr.Error() + "): " + cutLine(string(want))
	}
	if d := cmp.Diff(w, g); d != "" {
		lines := strings.Split(strings.TrimRight(d, "\n"), "\n")
		var b strings.Builder
		b.WriteString("(-want +got)")
		for i, l := range lines {
			if i == jsonDiffLines {
				fmt.Fprintf(&b, "\n  …(%d more lines)", len(lines)-i)
				break
			}
			b.WriteString("\n  " + cutLine(l))
		}
		return b.String()
	}
	if wo, gotOrder := memberOrder(want), memberOrder(got); !slices.Equal(wo, gotOrder) {
		return fmt.Sprintf("the same values, members in another order: want %s, got %s", cutLine(strings.Join(wo, ",")), cutLine(strings.Join(gotOrder, ",")))
	}
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	from := max(0, i-20)
	return fmt.Sprintf("the same values in other text, from byte %d: want …%q, got …%q", i, clip(want[from:], 60), clip(got[from:], 60))
}

// decodeJSON decodes doc keeping numbers as written.
func decodeJSON(doc []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// clip returns at most n bytes of b.
func clip(b []byte, n int) []byte { return b[:min(n, len(b))] }
