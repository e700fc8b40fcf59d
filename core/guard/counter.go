package guard

import (
	"slices"
	"strings"

	"github.com/galaxy-stack/conform/core/canon"
)

// counterLimit is the key limit of a bounded counter (RUNTIME §33.2).
const counterLimit = 128

// boundedCounter counts keys, keeping at most counterLimit of them and
// evicting the least recently updated first (RUNTIME §33.2). Its zero
// value is ready to use.
type boundedCounter struct {
	order  []string // least recently updated first
	counts map[string]int64
}

// inc adds one to key, moves it to the most recent position and returns
// its new count.
func (b *boundedCounter) inc(key string) int64 {
	if b.counts == nil {
		b.counts = map[string]int64{}
	}
	n := b.counts[key] + 1
	b.counts[key] = n
	if i := slices.Index(b.order, key); i >= 0 {
		b.order = slices.Delete(b.order, i, i+1)
	}
	b.order = append(b.order, key)
	for len(b.order) > counterLimit {
		delete(b.counts, b.order[0])
		b.order = b.order[1:]
	}
	return n
}

// set stores count for key as its most recent entry (used on restore).
func (b *boundedCounter) set(key string, count int64) {
	if b.counts == nil {
		b.counts = map[string]int64{}
	}
	if _, ok := b.counts[key]; ok {
		b.order = slices.DeleteFunc(b.order, func(k string) bool { return k == key })
	}
	b.counts[key] = count
	b.order = append(b.order, key)
	for len(b.order) > counterLimit {
		delete(b.counts, b.order[0])
		b.order = b.order[1:]
	}
}

// deletePrefix removes every key that starts with prefix.
func (b *boundedCounter) deletePrefix(prefix string) {
	b.order = slices.DeleteFunc(b.order, func(k string) bool {
		if strings.HasPrefix(k, prefix) {
			delete(b.counts, k)
			return true
		}
		return false
	})
}

// sortedKeys returns the keys in canonical text order.
func (b *boundedCounter) sortedKeys() []string {
	keys := slices.Clone(b.order)
	canon.SortStrings(keys)
	return keys
}

// sortedKeys returns the keys of m in canonical text order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	canon.SortStrings(keys)
	return keys
}

// lastN returns the last n elements of s.
func lastN[T any](s []T, n int) []T {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}
