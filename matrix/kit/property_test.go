package kit

import (
	"slices"
	"testing"
)

// sameDocument accepts what only the wire encoding changed and refuses a
// reordered, changed or extended document.
func TestSameDocument(t *testing.T) {
	// want is canonical, as the harness puts it.
	want := mustCanonical([]byte(`{"a":"x<\u2028","b":{"c":1,"d":[{"e":2,"f":3}]}}`))
	for _, c := range []struct {
		name string
		got  string
		same bool
	}{
		{"identical", string(want), true},
		{"wire escapes and whitespace", `{ "a": "x\u003c\u2028", "b": {"c": 1, "d": [{"e": 2, "f": 3}]} }`, true},
		{"top-level members reordered", `{"b":{"c":1,"d":[{"e":2,"f":3}]},"a":"x<\u2028"}`, false},
		{"nested members reordered", `{"a":"x<\u2028","b":{"d":[{"f":3,"e":2}],"c":1}}`, false},
		{"a value changed", `{"a":"x<\u2028","b":{"c":2,"d":[{"e":2,"f":3}]}}`, false},
		{"a member added", `{"a":"x<\u2028","b":{"c":1,"d":[{"e":2,"f":3}]},"g":null}`, false},
		{"not JSON", `{"a":`, false},
	} {
		if got := sameDocument([]byte(c.got), want); got != c.same {
			t.Errorf("%s: sameDocument = %v, want %v", c.name, got, c.same)
		}
	}
}

func TestMemberOrder(t *testing.T) {
	got := memberOrder([]byte(`{"z":[{"y":1},[{"x":{"w":2}}]],"a":{}}`))
	if want := []string{"z", "y", "x", "w", "a"}; !slices.Equal(got, want) {
		t.Errorf("memberOrder = %v, want %v", got, want)
	}
}

func TestForgeChangesOneDigit(t *testing.T) {
	h := "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	for at := range 16 {
		f := forge(h, at)
		diff := 0
		for i := range h {
			if h[i] != f[i] {
				diff++
			}
		}
		if diff != 1 {
			t.Errorf("forge(h, %d) changes %d characters: %s", at, diff, f)
		}
	}
}
