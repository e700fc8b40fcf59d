package canon

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"pgregory.net/rapid"
)

// treeGen draws trees as Parse returns them and as callers build them by
// hand: with unsorted and duplicate keys, numbers that are not JSON or not
// finite, invalid UTF-8, nil containers and values of other types.
func treeGen(depth int) *rapid.Generator[any] {
	leaves := rapid.OneOf(
		rapid.Just[any](nil),
		rapid.Bool().AsAny(),
		textGen(4).AsAny(),
		rapid.SampledFrom([]any{"\xff", "a\x00\"\\<>&\u2028", json.Number("01"), json.Number(""), json.Number("1e400"),
			json.Number("-0"), json.Number("1.50"), json.Number("1E2"), json.Number("x"), json.Number("-"), json.Number("1."),
			json.Number(".5"), json.Number("1e"), json.Number("-0.0e-0"), json.Number("123456789012345678"), 1.5, []any(nil), Object(nil)}),
		rapid.StringMatching(`-?(0|[1-9][0-9]{0,17})(\.[0-9]{1,3})?([eE][+-]?[0-9]{1,3})?`).AsAny(),
	)
	if depth == 0 {
		return leaves
	}
	keys := rapid.SampledFrom([]string{"a", "b", "B", "\uE000", "\U0001F600", "é", "", "\xff"})
	return rapid.OneOf(
		leaves,
		rapid.SliceOfN(treeGen(depth-1), 0, 4).AsAny(),
		rapid.Custom(func(t *rapid.T) any {
			n := rapid.IntRange(0, 5).Draw(t, "n")
			obj := Object{}
			for range n {
				obj = append(obj, Member{Key: keys.Draw(t, "key"), Value: treeGen(depth-1).Draw(t, "value")})
			}
			return obj
		}),
	)
}

var errNotDrawn = errors.New("no text drawn")

// TestPropertyMarshalTreeSameAsMarshal: MarshalTree writes what Marshal
// writes, and fails where it fails with the same message, for parsed
// trees and for hand-built ones.
func TestPropertyMarshalTreeSameAsMarshal(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var tree any
		var err error = errNotDrawn
		if rapid.Bool().Draw(t, "parsed") {
			tree, err = Parse(parseInputGen(t))
		}
		if err != nil {
			tree = treeGen(3).Draw(t, "tree")
		}
		want, wantErr := Marshal(tree)
		got, gotErr := MarshalTree(tree)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || string(got) != string(want) {
			t.Fatalf("MarshalTree(%#v):\n got %q, %v\nwant %q, %v", tree, got, gotErr, want, wantErr)
		}
	})
}

// TestMarshalTreeWritesDirectly: the trees Parse returns are written by
// appendTree itself, not handed to Marshal.
func TestMarshalTreeWritesDirectly(t *testing.T) {
	tree, err := Parse([]byte(`{"b":[1,-0,1E2,"x\u0000"],"a":{"d":null,"c":true},"\ue000":1,"\ud83d\ude00":2}`))
	if err != nil {
		t.Fatal(err)
	}
	b, ok := appendTree(nil, tree, 0)
	const want = `{"a":{"c":true,"d":null},"b":[1,0,100,"x\u0000"],"😀":2,"` + "\ue000" + `":1}`
	if !ok || string(b) != want {
		t.Fatalf("appendTree = %q, %v; want %q", b, ok, want)
	}
}
