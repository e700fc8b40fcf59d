package workspace

import (
	"slices"
	"testing"
	"unicode/utf16"

	"github.com/galaxy-stack/conform/core/canon"
	"pgregory.net/rapid"
)

// TestCompareUTF16 checks compareUTF16 against an explicit UTF-16 encoding,
// with runes drawn around the surrogate boundary where UTF-16 and byte
// order disagree.
func TestCompareUTF16(t *testing.T) {
	runes := rapid.SampledFrom([]rune{'a', 'z', '/', '-', 'é', 0xD7FF, 0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF})
	str := rapid.Custom(func(t *rapid.T) string {
		return string(rapid.SliceOfN(runes, 0, 6).Draw(t, "runes"))
	})
	rapid.Check(t, func(t *rapid.T) {
		a, b := str.Draw(t, "a"), str.Draw(t, "b")
		want := slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
		if got := compareUTF16(a, b); got != want {
			t.Fatalf("compareUTF16(%q, %q) = %d, want %d", a, b, got, want)
		}
		n := rapid.IntRange(0, 12).Draw(t, "n")
		cut := canon.CutUTF16(a, n)
		if canon.UTF16Len(cut) > n || len(utf16.Encode([]rune(cut))) != canon.UTF16Len(cut) {
			t.Fatalf("canon.CutUTF16(%q, %d) = %q", a, n, cut)
		}
		if unitsOfBytes([]byte(a)) != canon.UTF16Len(a) {
			t.Fatalf("unitsOfBytes(%q) = %d, want %d", a, unitsOfBytes([]byte(a)), canon.UTF16Len(a))
		}
	})
	// The order differs from byte order exactly around the surrogates.
	if compareUTF16("\U0001F600", "\uFFFD") >= 0 {
		t.Fatal("a supplementary rune must sort before U+FFFD in UTF-16 order")
	}
}

// TestGlobRegexp pins the glob translation rules of DECISIONS 50.
func TestGlobRegexp(t *testing.T) {
	cases := []struct {
		glob, path string
		want       bool
	}{
		{"*.ts", "a.ts", true},
		{"*.ts", "src/a.ts", false},
		{"**/*.ts", "a.ts", true},
		{"**/*.ts", "src/deep/a.ts", true},
		{"src/**", "src/deep/a.ts", true},
		{"?.go", "a.go", true},
		{"?.go", "/.go", false},
		{"*.{ts,py}", "a.ts", false},
		{"*.{ts,py}", "a.{ts,py}", true},
		{"[ab].txt", "a.txt", false},
		{"[ab].txt", "[ab].txt", true},
		{"A.TS", "a.ts", true},
		{"a+b(c).txt", "a+b(c).txt", true},
		{"é*", "Éclair", true},
	}
	for _, c := range cases {
		if got := globRegexp(c.glob).MatchString(c.path); got != c.want {
			t.Errorf("glob %q on %q = %v, want %v", c.glob, c.path, got, c.want)
		}
	}
}
