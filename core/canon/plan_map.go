package canon

import (
	"reflect"
	"slices"
	"strconv"
)

// A mapKey is one member of a map being written: its key as it appears in
// the output and the map's value for it.
type mapKey struct {
	key   string
	value reflect.Value
}

// newMapPlan makes the plan of map type t: members sorted by [CompareText]
// of their keys as encoding/json writes them (string keys, with invalid
// UTF-8 replaced, and integer keys in decimal). Keys that are
// TextMarshalers of a non-string kind, and other key kinds, get [giveUp].
func newMapPlan(t reflect.Type) planFunc {
	var keyOf func(k reflect.Value) string
	switch t.Key().Kind() {
	case reflect.String:
		keyOf = func(k reflect.Value) string { return validUTF8(k.String()) }
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if t.Key().Implements(textMarshalerType) {
			return giveUp
		}
		keyOf = func(k reflect.Value) string { return strconv.FormatInt(k.Int(), 10) }
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if t.Key().Implements(textMarshalerType) {
			return giveUp
		}
		keyOf = func(k reflect.Value) string { return strconv.FormatUint(k.Uint(), 10) }
	default:
		return giveUp
	}
	elem := planOf(t.Elem())
	return func(w *walker, b []byte, v reflect.Value) ([]byte, bool) {
		if v.IsNil() {
			return appendNull(b)
		}
		if !w.enter() {
			return b, false
		}
		base := len(w.keys)
		for it := v.MapRange(); it.Next(); {
			w.keys = append(w.keys, mapKey{key: keyOf(it.Key()), value: it.Value()})
		}
		members := w.keys[base:]
		slices.SortFunc(members, func(a, b mapKey) int { return CompareText(a.key, b.key) })
		b = append(b, '{')
		for i := range members {
			m := members[i]
			if i > 0 {
				if m.key == members[i-1].key {
					return b, false // two keys written alike: the general path reports it
				}
				b = append(b, ',')
			}
			b = appendString(b, m.key)
			b = append(b, ':')
			var ok bool
			if b, ok = elem(w, b, m.value); !ok {
				return b, false
			}
		}
		clear(w.keys[base:])
		w.keys = w.keys[:base]
		w.leave()
		return append(b, '}'), true
	}
}
