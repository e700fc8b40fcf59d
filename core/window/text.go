package window

import (
	"strings"
	"unicode/utf16"

	"github.com/galaxy-stack/conform/core/canon"
)

// The original runtime measures and cuts text in UTF-16 code units
// (JavaScript string length and slice, DECISIONS 38). These helpers do the
// same on Go strings. A cut that would split a surrogate pair keeps the
// whole pair out of the result, so the result is always valid UTF-8.

// suffix16 returns the longest suffix of s of at most n UTF-16 code units
// (JavaScript's s.slice(-n) for n > 0).
func suffix16(s string, n int) string {
	if n <= 0 {
		return ""
	}
	total := canon.UTF16Len(s)
	if total <= n {
		return s
	}
	skip := total - n
	units := 0
	for i, r := range s {
		if units >= skip {
			return s[i:]
		}
		if r > 0xFFFF {
			units += 2
		} else {
			units++
		}
	}
	return ""
}

// collapseSpace replaces every run of Unicode white space with one space
// (JavaScript's replace(/\s+/gu, " ")).
func collapseSpace(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	inSpace := false
	for _, r := range s {
		if canon.IsJSSpace(r) {
			if !inSpace {
				b.WriteByte(' ')
			}
			inSpace = true
			continue
		}
		inSpace = false
		b.WriteRune(r)
	}
	return b.String()
}

// jsonText returns the JSON text of v as JavaScript's JSON.stringify writes
// it for the values the context manager serializes: no HTML escaping and
// no trailing newline. A nil slice is written as [] and a nil map as {}
// by the callers, which normalize before serializing.
func jsonText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := canon.Stringify(v)
	if err != nil {
		return ""
	}
	return string(b)
}

// units16 returns the UTF-16 code units of s.
func units16(s string) []uint16 { return utf16.Encode([]rune(s)) }

// string16 returns the string of UTF-16 units u; a lone surrogate becomes
// U+FFFD, which is also what the original's UTF-8 encoder writes for it.
func string16(u []uint16) string { return string(utf16.Decode(u)) }

// reverseRunes reverses s by code points (JavaScript's
// [...s].reverse().join("")).
func reverseRunes(u []uint16) []uint16 {
	runes := utf16.Decode(u)
	for i, j := 0, len(runes)-1; i < j; i, j = i+1, j-1 {
		runes[i], runes[j] = runes[j], runes[i]
	}
	return utf16.Encode(runes)
}
