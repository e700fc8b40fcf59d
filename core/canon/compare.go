package canon

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// CompareText orders a and b by their UTF-16 code units, as JavaScript's
// < on strings does (CONTRACTS §1.1). It returns -1, 0 or +1. It agrees with
// Go's byte order except that a code point above U+FFFF (a surrogate pair
// starting with U+D800–U+DBFF) sorts before any code point in
// U+E000–U+FFFF. Invalid UTF-8 bytes compare as U+FFFD.
func CompareText(a, b string) int {
	// Equal bytes decode alike, and an ASCII byte is never inside another
	// rune's encoding, so when the first difference is between two ASCII
	// bytes it decides, as it does in UTF-16.
	n := min(len(a), len(b))
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	switch {
	case i == n && len(a) == len(b):
		return 0
	case i < n && a[i] < utf8.RuneSelf && b[i] < utf8.RuneSelf:
		if a[i] < b[i] {
			return -1
		}
		return 1
	}
	return compareRunes(a, b)
}

// compareRunes is CompareText without its ASCII shortcut: rune by rune,
// invalid bytes as U+FFFD.
func compareRunes(a, b string) int {
	for a != "" && b != "" {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if ra != rb {
			return compareUnits(ra, rb)
		}
		a, b = a[na:], b[nb:]
	}
	switch {
	case a == "" && b == "":
		return 0
	case a == "":
		return -1
	default:
		return 1
	}
}

// compareUnits compares two different runes as their UTF-16 encodings
// compare. Within either side of U+FFFF the encoding is monotone, so the
// runes compare directly; across the boundary the first code units differ
// (a high surrogate U+D800–U+DBFF against a BMP scalar value, which is never
// a surrogate) and decide.
func compareUnits(ra, rb rune) int {
	if (ra > 0xFFFF) != (rb > 0xFFFF) {
		ra, rb = firstUnit(ra), firstUnit(rb)
	}
	if ra < rb {
		return -1
	}
	return 1
}

// firstUnit returns the first UTF-16 code unit of r.
func firstUnit(r rune) rune {
	if r > 0xFFFF {
		return 0xD800 + (r-0x10000)>>10
	}
	return r
}

// SortStrings sorts s in place by [CompareText].
func SortStrings(s []string) {
	slices.SortFunc(s, CompareText)
}

// UTF16Len returns the number of UTF-16 code units of s, which is what
// JavaScript's string.length reports. An invalid UTF-8 byte counts as one
// unit (it stands for U+FFFD).
func UTF16Len(s string) int {
	n := 0
	for _, r := range s {
		if r > 0xFFFF {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// CutUTF16 returns the longest prefix of s of at most n UTF-16 code units
// that does not split a surrogate pair: JavaScript's s.slice(0, n), minus a
// dangling high surrogate.
func CutUTF16(s string, n int) string {
	units := 0
	for i, r := range s {
		w := 1
		if r > 0xFFFF {
			w = 2
		}
		if units+w > n {
			return s[:i]
		}
		units += w
	}
	return s
}

// IsBlank reports whether s is empty after JavaScript's String.prototype.trim,
// which removes the ECMAScript WhiteSpace and LineTerminator code points
// (TAB, VT, FF, SP, U+00A0, U+FEFF, the Zs category, LF, CR, U+2028,
// U+2029). Unlike Go's unicode.IsSpace it keeps U+0085 and removes U+FEFF.
// "Non-blank" in the contracts means !IsBlank.
func IsBlank(s string) bool {
	for _, r := range s {
		if !IsJSSpace(r) {
			return false
		}
	}
	return true
}

// TrimJSSpace removes from both ends of s what JavaScript's
// String.prototype.trim removes (see [IsJSSpace]).
func TrimJSSpace(s string) string { return strings.TrimFunc(s, IsJSSpace) }

// IsJSSpace reports whether r is JavaScript white space or a line
// terminator: what String.prototype.trim removes and the regular
// expression \s matches (see [IsBlank] for the list).
func IsJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0x00A0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}
