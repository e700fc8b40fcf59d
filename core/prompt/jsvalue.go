package prompt

import (
	"encoding/json"
	"math"
	"sort"
	"strconv"

	"github.com/galaxy-stack/conform/core/canon"
)

// The request validator works on the tree [canon.Parse] returns (nil, bool,
// string, json.Number, []any, canon.Object) so that it sees exactly what
// the original runtime sees: which keys are present, their JSON types and
// their order.

// keyOrder returns the keys of o in the order JavaScript's Object.keys
// lists them: array-index keys ("0", "7", "42") first in ascending numeric
// order, then the other keys in document order. The original reports the
// first unknown key in this order.
func keyOrder(o canon.Object) []string {
	var index []uint64
	var names []string
	for _, m := range o {
		if n, ok := arrayIndex(m.Key); ok {
			index = append(index, n)
			continue
		}
		names = append(names, m.Key)
	}
	sort.Slice(index, func(i, j int) bool { return index[i] < index[j] })
	out := make([]string, 0, len(o))
	for _, n := range index {
		out = append(out, strconv.FormatUint(n, 10))
	}
	return append(out, names...)
}

// arrayIndex reports whether key is a canonical array index: the decimal
// form of an integer in [0, 2^32-2] without leading zeros.
func arrayIndex(key string) (uint64, bool) {
	if key == "" || len(key) > 10 || (len(key) > 1 && key[0] == '0') {
		return 0, false
	}
	n, err := strconv.ParseUint(key, 10, 64)
	if err != nil || n > math.MaxUint32-1 {
		return 0, false
	}
	return n, true
}

// firstUnknown returns the first key of o, in [keyOrder], outside known.
func firstUnknown(o canon.Object, known []string) (string, bool) {
	for _, k := range keyOrder(o) {
		if !contains(known, k) {
			return k, true
		}
	}
	return "", false
}

// sameKeySet reports whether o has exactly the keys of want.
func sameKeySet(o canon.Object, want ...string) bool {
	if len(o) != len(want) {
		return false
	}
	for _, k := range want {
		if _, ok := o.Get(k); !ok {
			return false
		}
	}
	return true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// nonEmptyText reports whether v is a string that is not blank after
// JavaScript's trim.
func nonEmptyText(v any) bool {
	s, ok := v.(string)
	return ok && !canon.IsBlank(s)
}

// asObject returns v as an object when it is one (not null, not an array).
func asObject(v any) (canon.Object, bool) {
	o, ok := v.(canon.Object)
	return o, ok
}

// oneOf reports whether v is a string in list.
func oneOf(v any, list []string) bool {
	s, ok := v.(string)
	return ok && contains(list, s)
}

// safeNonNegativeInteger reports whether v is a JSON number that
// JavaScript's Number.isSafeInteger accepts and that is not negative, and
// returns it.
func safeNonNegativeInteger(v any) (int64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || math.IsInf(f, 0) || f != math.Trunc(f) || f < 0 || f > 1<<53-1 {
		return 0, false
	}
	return int64(f), true
}
