package canon

import (
	"bytes"
	"math"
	"testing"

	"pgregory.net/rapid"
)

// TestPropertyPlainMatchesGeneral: on plain trees the direct writer
// accepts the value and writes exactly what the encoding/json round trip
// writes, so [Marshal]'s fast path changes no output.
func TestPropertyPlainMatchesGeneral(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := valueGen(3).Draw(t, "value")
		want, err := canonicalEncoder.marshal(v)
		if err != nil {
			t.Fatalf("general path: %v", err)
		}
		var b bytes.Buffer
		if !writePlain(&b, v, 0) {
			t.Fatalf("writePlain declined a plain tree %#v", v)
		}
		if !bytes.Equal(b.Bytes(), want) {
			t.Fatalf("writePlain wrote %s, general path %s", b.Bytes(), want)
		}
	})
}

// TestPlainDeclines: values the general path must judge (its errors, its
// replacement of invalid UTF-8, other Go types, cycles) are declined, and
// Marshal still answers as the general path does.
func TestPlainDeclines(t *testing.T) {
	cyclic := map[string]any{}
	cyclic["self"] = cyclic
	for name, v := range map[string]any{
		"NaN":          math.NaN(),
		"nested +Inf":  []any{map[string]any{"x": math.Inf(1)}},
		"invalid utf8": "a\xffb",
		"invalid key":  map[string]any{"\xff": 1.0},
		"int":          3,
		"struct":       struct{ A int }{1},
		"cycle":        cyclic,
	} {
		var b bytes.Buffer
		if writePlain(&b, v, 0) {
			t.Errorf("%s: writePlain accepted %#v", name, v)
		}
		if name == "cycle" {
			continue
		}
		want, wantErr := canonicalEncoder.marshal(v)
		got, gotErr := Marshal(v)
		if !bytes.Equal(got, want) || (gotErr == nil) != (wantErr == nil) || (gotErr != nil && gotErr.Error() != wantErr.Error()) {
			t.Errorf("%s: Marshal = %s, %v; general path %s, %v", name, got, gotErr, want, wantErr)
		}
	}
}
