package canon

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// parseInputGen draws JSON texts for the parser: encoding/json's spelling
// of a random value, the same value spaced and escaped, the awkward texts
// of rawGen, objects large enough to find duplicates with a set, and any
// of those with a few bytes changed, cut or inserted (mostly invalid
// texts, whose errors come from the token decoder).
func parseInputGen(t *rapid.T) []byte {
	v := valueGen(3).Draw(t, "value")
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("json.Marshal: %v", err)
	}
	var text []byte
	switch rapid.IntRange(0, 3).Draw(t, "kind") {
	case 0:
		text = raw
	case 1:
		text = escapeAll(t, raw)
	case 2:
		text = []byte(rawGen.Draw(t, "raw"))
	default:
		n := rapid.IntRange(smallObject-2, smallObject+6).Draw(t, "members")
		dup := rapid.IntRange(-1, n-1).Draw(t, "dup")
		var b strings.Builder
		b.WriteString(` { `)
		for i := range n {
			if i > 0 {
				b.WriteString(" ,\n")
			}
			key := i
			if i == n-1 && dup >= 0 {
				key = dup
			}
			fmt.Fprintf(&b, `"k%d" : {"x":[%d, "\u00e9"]}`, key, i)
		}
		b.WriteString("}\t")
		text = []byte(b.String())
	}
	for range rapid.IntRange(0, 2).Draw(t, "edits") {
		if len(text) == 0 {
			break
		}
		i := rapid.IntRange(0, len(text)-1).Draw(t, "at")
		c := rapid.SampledFrom([]byte("{}[],:\"\\ 0-1.eEtfnu\xff\xc3a")).Draw(t, "byte")
		switch rapid.IntRange(0, 2).Draw(t, "edit") {
		case 0:
			text[i] = c
		case 1:
			text = append(text[:i:i], text[i+1:]...)
		default:
			text = append(text[:i:i], append([]byte{c}, text[i:]...)...)
		}
	}
	return text
}

// TestPropertyParseSameAsDecoding: Parse returns the same tree, or the
// same error message, as the token decoder it puts in front of.
func TestPropertyParseSameAsDecoding(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		text := parseInputGen(t)
		want, wantErr := parseDecoding(text)
		got, gotErr := Parse(text)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
			t.Fatalf("Parse(%q):\n got %#v, %v\nwant %#v, %v", text, got, gotErr, want, wantErr)
		}
	})
}

// TestParseEdges pins texts where a one-pass builder could go wrong.
func TestParseEdges(t *testing.T) {
	for _, text := range []string{
		``, ` `, `{}`, `[]`, ` [ ] `, `{ }`, `[{},[]]`, `"a\"b"`, `"\\"`, `"\u00e9\ud800x"`, `{"a":1, "a":2}`,
		`{"\u0061":1,"a":2}`, `[1,2`, `{"a"}`, `1 2`, `-0`, `1e400`, `tru`, `nul`, "\"\xff\"", `{"a":{"b":1,"b":2},"a":3}`,
		`[1,]`, `{"a":1,}`, "\ufeff{}", `{"a":[1,{"c":"d"}],"b":null}`,
	} {
		want, wantErr := parseDecoding([]byte(text))
		got, gotErr := Parse([]byte(text))
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
			t.Errorf("Parse(%q):\n got %#v, %v\nwant %#v, %v", text, got, gotErr, want, wantErr)
		}
	}
}
