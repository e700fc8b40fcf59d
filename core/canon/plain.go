package canon

import (
	"bytes"
	"math"
	"slices"
	"unicode/utf8"
)

// maxPlainDepth bounds the nesting [writePlain] follows before it gives the
// value to the general path, which reports cycles as encoding/json does.
const maxPlainDepth = 64

// writePlain appends the canonical JSON of a plain tree — nil, bool, a
// finite float64, a valid UTF-8 string, []any and map[string]any of those —
// to b, as [Marshal] would write it after its encoding/json round trip. It
// returns false, leaving b in an unspecified state, for anything else (other
// Go types, non-finite numbers, invalid UTF-8, deep nesting), which the
// general path handles and reports.
func writePlain(b *bytes.Buffer, v any, depth int) bool {
	if depth > maxPlainDepth {
		return false
	}
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		if x {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case string:
		if !utf8.ValidString(x) {
			return false
		}
		writeString(b, x)
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return false
		}
		b.Write(appendNumber(b.AvailableBuffer(), x))
	case []any:
		b.WriteByte('[')
		for i, item := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			if !writePlain(b, item, depth+1) {
				return false
			}
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			if !utf8.ValidString(k) {
				return false
			}
			keys = append(keys, k)
		}
		slices.SortFunc(keys, CompareText)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, k)
			b.WriteByte(':')
			if !writePlain(b, x[k], depth+1) {
				return false
			}
		}
		b.WriteByte('}')
	default:
		return false
	}
	return true
}
