package reports

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

// sortItems sorts items by reference (numbered ones first, by number, see
// [refKey]), stably, parsing each reference once.
func sortItems(items []Item) {
	type keyed struct {
		key refKey
		it  Item
	}
	ks := make([]keyed, len(items))
	for i, it := range items {
		ks[i] = keyed{parseRef(ItemRef(it)), it}
	}
	slices.SortStableFunc(ks, func(a, b keyed) int { return a.key.compare(b.key) })
	for i := range ks {
		items[i] = ks[i].it
	}
}

// refKey is an item reference as it sorts: by the number it starts with,
// if any, then by the reference itself.
type refKey struct {
	ref   string
	num   uint64
	isNum bool
}

// parseRef reads the decimal number a reference starts with: "13" and
// "13-fixture" are 13, "R1" and "fixture" no number.
func parseRef(ref string) refKey {
	k := refKey{ref: ref}
	for i := 0; i < len(ref) && ref[i] >= '0' && ref[i] <= '9'; i++ {
		if k.num > (math.MaxUint64-9)/10 {
			return refKey{ref: ref} // too long to be a number: by name
		}
		k.num, k.isNum = k.num*10+uint64(ref[i]-'0'), true
	}
	return k
}

// compare orders numbered references first, by number, then the others,
// each by the reference itself.
func (a refKey) compare(b refKey) int {
	switch {
	case a.isNum && b.isNum:
		if c := cmp.Compare(a.num, b.num); c != 0 {
			return c
		}
	case a.isNum:
		return -1
	case b.isNum:
		return 1
	}
	return strings.Compare(a.ref, b.ref)
}
