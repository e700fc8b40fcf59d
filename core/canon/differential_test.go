package canon

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gowebpki/jcs"
	"pgregory.net/rapid"
)

// escapeAll rewrites JSON text so that every non-ASCII character and some
// ASCII ones are \u escapes (as surrogate pairs above U+FFFF), and spaces
// the tokens: the same value in a spelling encoding/json never writes.
func escapeAll(t *rapid.T, raw []byte) []byte {
	var b strings.Builder
	inString := false
	s := string(raw)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case inString && r == '\\':
			b.WriteString(s[i : i+2])
			i += 2
			continue
		case r == '"':
			inString = !inString
			b.WriteRune(r)
		case inString && (r > 0x7e || (r == 'a' && rapid.Bool().Draw(t, "escape-a"))):
			if r > 0xFFFF {
				r -= 0x10000
				fmt.Fprintf(&b, `\u%04X\u%04x`, 0xD800+(r>>10), 0xDC00+(r&0x3FF))
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		case !inString && (r == ',' || r == ':'):
			b.WriteString(" \t")
			b.WriteRune(r)
			b.WriteString("\n ")
		default:
			b.WriteRune(r)
		}
		i += n
	}
	return []byte(b.String())
}

// rawGen draws JSON texts the plain generator cannot: number spellings,
// lone and paired surrogate escapes, duplicate keys, overflowing numbers.
var rawGen = rapid.OneOf(
	rapid.SampledFrom([]string{
		`-0`, `0`, `-0.0`, `1.0`, `1E2`, `1e-7`, `123456789012345`, `1234567890123456`,
		`-999999999999999`, `9007199254740993`, `12345678901234567890123`, `1e400`, `-1e400`,
		`0.1e1`, `5e-324`, `1e-400`, `[1,1e400]`,
		`"\ud800"`, `"\ud800\u0041"`, `"\udc00\ud800"`, `"\ud83d\ude00"`, `"\uD83D\uDE00x"`,
		`"\ud800\ud800\udc00"`, `"\/\b\f\n\r\t\"\\"`, `"\u0000\u001f\u007f\u2028"`,
		`{"a":1,"a":2}`, `{"b":1,"a":2,"b":3}`, `{"b":{"y":1,"x":2},"a":0}`,
		`{"a":1,"\u0061":2}`, `{"\uE000":1,"\ud83d\ude00":2,"z":3}`,
		`{"b":[1e400],"a":1,"a":2}`, `{"a":1e400,"a":2}`,
	}),
	rapid.Map(rapid.StringMatching(`-?(0|[1-9][0-9]{0,22})(\.[0-9]{1,20})?([eE][+-]?[0-9]{1,3})?`), func(s string) string { return s }),
)

// propSameAsLegacy: Marshal's one-pass encoder writes the same bytes, and
// fails on the same values with the same message, as the tree-building
// encoder it replaced.
func propSameAsLegacy(t *rapid.T) {
	v := valueGen(3).Draw(t, "value")
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("json.Marshal: %v", err)
	}
	inputs := []any{
		v,
		json.RawMessage(raw),
		json.RawMessage(escapeAll(t, raw)),
		json.RawMessage(rawGen.Draw(t, "raw")),
		struct {
			Z any    `json:"z"`
			A string `json:"a,omitempty"`
			E any    `json:"\u00e9"`
		}{Z: v, E: json.RawMessage(raw)},
	}
	for _, in := range inputs {
		want, wantErr := legacyMarshal(in)
		got, gotErr := canonicalEncoder.marshal(in)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || string(got) != string(want) {
			t.Fatalf("input %#v:\n got %q, %v\nwant %q, %v", in, got, gotErr, want, wantErr)
		}
	}
	want, _ := legacyMarshal(v)
	if got, err := Marshal(v); err != nil || string(got) != string(want) {
		t.Fatalf("Marshal(%#v) = %q, %v; want %q", v, got, err, want)
	}
}

// propNumberSameAsJCS: appendNumber writes what jcs.NumberToJSON writes.
func propNumberSameAsJCS(t *rapid.T) {
	f := rapid.OneOf(rapid.Float64(), rapid.SampledFrom([]float64{
		0, math.Copysign(0, -1), 1e21, 1e-6, 9.999999999999999e-7, 1e20, 5e-324, math.MaxFloat64, 1e-7, 1e100, 123e-20,
	})).Draw(t, "f")
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return
	}
	want, err := jcs.NumberToJSON(f)
	if err != nil {
		t.Fatalf("jcs.NumberToJSON(%v): %v", f, err)
	}
	if got := string(appendNumber(nil, f)); got != want {
		t.Fatalf("appendNumber(%v) = %q, want %q", f, got, want)
	}
}

func TestPropertyNumberSameAsJCS(t *testing.T) { rapid.Check(t, propNumberSameAsJCS) }

func TestPropertySameAsLegacy(t *testing.T) { rapid.Check(t, propSameAsLegacy) }

// propCompareSameAsLegacy: CompareText agrees with its rune-by-rune form,
// also on invalid UTF-8.
func propCompareSameAsLegacy(t *rapid.T) {
	bytesGen := rapid.SliceOfN(rapid.SampledFrom([]byte("ab\x00\x7f\x80\xbf\xc3\xa9\xee\xef\xf0\x9f\x98\x80\xff")), 0, 8)
	a := string(bytesGen.Draw(t, "a"))
	b := string(bytesGen.Draw(t, "b"))
	if got, want := CompareText(a, b), compareRunes(a, b); got != want {
		t.Fatalf("CompareText(%q, %q) = %d, want %d", a, b, got, want)
	}
}

func TestPropertyCompareSameAsLegacy(t *testing.T) { rapid.Check(t, propCompareSameAsLegacy) }
