package clone_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/galaxy-stack/conform/core/clone"
	"github.com/google/go-cmp/cmp"
)

func TestPtrCopiesTheValue(t *testing.T) {
	if clone.Ptr[int](nil) != nil {
		t.Fatal("Ptr(nil) is not nil")
	}
	n := 7
	p := clone.Ptr(&n)
	if p == &n || *p != 7 {
		t.Fatalf("Ptr(&7) = %p → %d, want a new pointer to 7", p, *p)
	}
	*p = 8
	if n != 7 {
		t.Fatal("writing through the copy changed the original")
	}
}

func TestJSONSharesNoMemory(t *testing.T) {
	orig := map[string]any{
		"type": "object", "minimum": 1, "big": int64(1 << 40), "ratio": 0.5, "n": json.Number("3"), "ok": true, "none": nil,
		"required": []any{"path", map[string]any{"nested": []any{1.0}}},
	}
	got := clone.Object(orig)
	if d := cmp.Diff(orig, got); d != "" {
		t.Fatalf("the copy differs (-orig +copy):\n%s", d)
	}
	got["type"] = "array"
	got["required"].([]any)[0] = "other"
	got["required"].([]any)[1].(map[string]any)["nested"].([]any)[0] = 2.0
	if orig["type"] != "object" || orig["required"].([]any)[0] != "path" || orig["required"].([]any)[1].(map[string]any)["nested"].([]any)[0] != 1.0 {
		t.Fatalf("writing to the copy changed the original: %v", orig)
	}
	if clone.Object(nil) != nil {
		t.Fatal("Object(nil) is not nil")
	}
}

func TestJSONTurnsOtherTypesIntoTheGenericForm(t *testing.T) {
	in := []string{"a", "b"}
	got := clone.JSON(map[string]any{"enum": in, "labels": map[string]string{"k": "v"}})
	want := map[string]any{"enum": []any{"a", "b"}, "labels": map[string]any{"k": "v"}}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("copy (-want +got):\n%s", d)
	}
	if clone.JSON(func() {}) != nil {
		t.Fatal("a value that does not marshal is not copied as nil")
	}
}

func TestEqualComparesJSONTreesExactly(t *testing.T) {
	negZero := math.Copysign(0, -1)
	cases := []struct {
		a, b any
		want bool
	}{
		{nil, nil, true},
		{"x", "x", true},
		{"x", "y", false},
		{1.0, 1.0, true},
		{0.0, negZero, false}, // 0 and -0 encode differently
		{true, false, false},
		{map[string]any{"a": []any{1.0, "b"}}, map[string]any{"a": []any{1.0, "b"}}, true},
		{map[string]any{"a": 1.0}, map[string]any{"b": 1.0}, false},
		{map[string]any(nil), map[string]any{}, false},
		{[]any(nil), []any{}, false},
		{[]any{1.0}, []any{1.0, 2.0}, false},
		{"1", 1.0, false},
		{json.Number("1"), json.Number("1"), true},
	}
	for _, c := range cases {
		if got := clone.Equal(c.a, c.b); got != c.want {
			t.Errorf("Equal(%#v, %#v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
