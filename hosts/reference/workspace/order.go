package workspace

import (
	"cmp"
	"strings"
	"unicode/utf8"
)

// compareUTF16 orders strings by UTF-16 code units, the order of the
// original runtime's string comparison (LAB_AND_HOSTS conventions). Names
// that compare equal that way (invalid UTF-8) fall back to byte order so
// the order stays total.
func compareUTF16(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		ra, na := utf8.DecodeRuneInString(a[i:])
		rb, nb := utf8.DecodeRuneInString(b[j:])
		i += na
		j += nb
		if ra == rb {
			continue
		}
		ha, la := utf16Units(ra)
		hb, lb := utf16Units(rb)
		if ha != hb {
			return cmp.Compare(int(ha), int(hb))
		}
		if la != lb {
			return cmp.Compare(int(la), int(lb))
		}
	}
	switch {
	case i < len(a):
		return 1
	case j < len(b):
		return -1
	}
	return strings.Compare(a, b)
}

// utf16Units returns the first and second UTF-16 code unit of r (the second
// is 0 for a rune in the basic multilingual plane).
func utf16Units(r rune) (uint16, uint16) {
	if r < 0x10000 {
		return uint16(r), 0
	}
	r -= 0x10000
	return uint16(0xD800 + (r >> 10)), uint16(0xDC00 + (r & 0x3FF))
}
