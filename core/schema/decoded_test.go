package schema_test

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"pgregory.net/rapid"

	"github.com/galaxy-stack/conform/core/schema"
)

// decodedText is what the validator was given before Decoded: v encoded
// as JSON and decoded with numbers as json.Number.
func decodedText(t *rapid.T, v any) (any, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		t.Fatalf("decoding %s: %v", raw, err)
	}
	return out, nil
}

// jsonValue draws a value Decoded takes, mostly, and now and then one it
// must leave to the encoder (bad UTF-8, NaN, an infinity, a float32, a
// map of another type).
func jsonValue(depth int) *rapid.Generator[any] {
	floats := rapid.OneOf(rapid.Float64(), rapid.SampledFrom([]float64{
		0, math.Copysign(0, -1), 1e-7, 1e-6, 9.999e-7, 1e20, 1e21, 1e-10, 123456789e15, 0.1, -2.5e-300, 5e-324,
		math.MaxFloat64, -1e21, 100, 1.5,
	}))
	return rapid.Custom(func(t *rapid.T) any {
		n := 9
		if depth > 0 {
			n = 13
		}
		switch rapid.IntRange(0, n-1).Draw(t, "kind") {
		case 0:
			return nil
		case 1:
			return rapid.Bool().Draw(t, "bool")
		case 2:
			return rapid.StringOf(rapid.SampledFrom([]rune{'a', '<', '&', '"', '\u2028', 'é', '\ufffd', 0})).Draw(t, "string")
		case 3, 4:
			return floats.Draw(t, "float")
		case 5:
			return rapid.Int().Draw(t, "int")
		case 6:
			return rapid.OneOf(rapid.Just[any](rapid.Int64().Draw(t, "int64")), rapid.Just[any](rapid.Int32().Draw(t, "int32")), rapid.Just[any](rapid.Uint64().Draw(t, "uint64"))).Draw(t, "sized")
		case 7:
			return rapid.SliceOfN(rapid.SampledFrom([]string{"a", "", "é"}), -1, 3).Draw(t, "strings")
		case 8:
			return rapid.SampledFrom([]any{"\xff", "a\xc3", math.NaN(), math.Inf(-1), float32(1.5), map[string]int{"a": 1}, json.Number("1")}).Draw(t, "refused")
		case 9, 10:
			return rapid.MapOfN(rapid.SampledFrom([]string{"type", "", "é", "<k>"}), jsonValue(depth-1), 0, 3).Draw(t, "map")
		case 11:
			return rapid.SliceOfN(jsonValue(depth-1), 0, 3).Draw(t, "slice")
		default:
			return rapid.SampledFrom([]any{map[string]any(nil), []any(nil), []string(nil), map[string]any{"\xff": 1}}).Draw(t, "nil")
		}
	})
}

// TestDecodedIsTheDecodedText checks Decoded against the round trip it
// replaces: whenever it takes a value, its answer is the decoded JSON
// text of the value, number texts included, and it takes every value
// made only of the types it walks.
func TestDecodedIsTheDecodedText(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := jsonValue(3).Draw(t, "value")
		want, encErr := decodedText(t, v)
		got, ok := schema.Decoded(v)
		if takes := schema.Takes(v); takes != ok {
			t.Fatalf("Takes: %v, Decoded: %v", takes, ok)
		}
		if !ok {
			return
		}
		if encErr != nil {
			t.Fatalf("Decoded took a value the encoder refuses: %v", encErr)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Decoded: %#v, the decoded text: %#v", got, want)
		}
	})
}

// TestDecodedTakesJSONValues checks that Decoded takes what decoding JSON
// gives and what the catalog's schema fragments are built of, so that the
// fast path is the one taken.
func TestDecodedTakesJSONValues(t *testing.T) {
	for _, v := range []any{
		map[string]any{"type": "object", "properties": map[string]any{"n": map[string]any{"type": "integer", "minimum": 0, "maximum": 1.5e3}}, "required": []any{"n"}},
		map[string]any{"enum": []string{"a", "b"}, "maxItems": int64(3), "const": nil, "default": true},
		[]any{float64(1e21), 1e-7, int32(-4), uint64(math.MaxUint64)},
	} {
		if _, ok := schema.Decoded(v); !ok {
			t.Errorf("Decoded does not take %#v", v)
		}
	}
	for _, v := range []any{"\xff", math.NaN(), math.Inf(1), float32(1), map[string]string{}, struct{}{}, json.Number("1")} {
		if _, ok := schema.Decoded(v); ok {
			t.Errorf("Decoded takes %#v, which it must leave to the encoder", v)
		}
	}
	cyclic := map[string]any{}
	cyclic["self"] = cyclic
	if _, ok := schema.Decoded(cyclic); ok {
		t.Error("Decoded takes a map that holds itself")
	}
}
