package effects

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf16"
)

// blank reports whether s is empty after trimming the white space that
// JavaScript's String.prototype.trim removes (ECMAScript WhiteSpace and
// LineTerminator). It differs from strings.TrimSpace: U+FEFF is white space
// here, U+0085 is not.
func blank(s string) bool {
	return strings.TrimFunc(s, jsSpace) == ""
}

func jsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0xFEFF, 0x2028, 0x2029:
		return true
	}
	return unicode.Is(unicode.Zs, r)
}

// compareText orders strings by UTF-16 code units, as JavaScript's "<" on
// strings does (CONTRACTS §1.1).
func compareText(a, b string) int {
	if a == b {
		return 0
	}
	ua, ub := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	return slices.Compare(ua, ub)
}

// sortedUnique returns the distinct values of in, ordered by compareText.
func sortedUnique(in []string) []string {
	out := slices.Clone(in)
	slices.SortFunc(out, compareText)
	return slices.Compact(out)
}
