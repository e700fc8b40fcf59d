package canon

import (
	"encoding/json"
	"slices"
	"unicode/utf8"
)

// MarshalTree returns [Marshal] of v, writing a tree such as [Parse]
// returns (nil, bool, string, [json.Number], []any and [Object] values)
// directly instead of through encoding/json and the Object's MarshalJSON.
// Any other value, and a tree [Marshal] would refuse or rewrite (invalid
// UTF-8, a number that is not finite or not JSON, duplicate keys, deep
// nesting, a nil slice or Object), is given to [Marshal].
func MarshalTree(v any) ([]byte, error) {
	if b, ok := appendTree(make([]byte, 0, 1024), v, 0); ok {
		return b, nil
	}
	return Marshal(v)
}

// appendTree appends the canonical JSON of the tree v to b, or reports
// false.
func appendTree(b []byte, v any, depth int) ([]byte, bool) {
	if depth > maxPlainDepth {
		return b, false
	}
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), true
	case bool:
		if x {
			return append(b, "true"...), true
		}
		return append(b, "false"...), true
	case string:
		if !utf8.ValidString(x) {
			return b, false
		}
		return appendString(b, x), true
	case json.Number:
		if !isJSONNumber(string(x)) {
			return b, false
		}
		return appendNumberText(b, string(x))
	case []any:
		if x == nil {
			return b, false
		}
		b = append(b, '[')
		for i, item := range x {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = appendTree(b, item, depth+1); !ok {
				return b, false
			}
		}
		return append(b, ']'), true
	case Object:
		if x == nil {
			return b, false
		}
		return appendObject(b, x, depth)
	}
	return b, false
}

// appendObject appends the members of o sorted by [CompareText].
func appendObject(b []byte, o Object, depth int) ([]byte, bool) {
	sorted := o
	if !slices.IsSortedFunc(o, compareMembers) {
		sorted = slices.Clone(o)
		slices.SortFunc(sorted, compareMembers)
	}
	b = append(b, '{')
	for i, m := range sorted {
		if i > 0 {
			if sorted[i-1].Key == m.Key {
				return b, false
			}
			b = append(b, ',')
		}
		if !utf8.ValidString(m.Key) {
			return b, false
		}
		b = appendString(b, m.Key)
		b = append(b, ':')
		var ok bool
		if b, ok = appendTree(b, m.Value, depth+1); !ok {
			return b, false
		}
	}
	return append(b, '}'), true
}

func compareMembers(a, b Member) int { return CompareText(a.Key, b.Key) }

// isJSONNumber reports whether s is a number as JSON spells it.
func isJSONNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() int {
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - start
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case digits() == 0:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}
