// Package shard splits the items of a certification into parts that run
// apart (conform certify --shard i/n, --parallel N) and merge back into
// one result document.
//
// [Partition] is deterministic: the same items, number of parts and costs
// give the same parts, on every machine. It balances the parts by the
// items' costs, longest item first, each to the part with the least total
// so far: the durations a previous result document recorded ([CostsOf]),
// or the table embedded here ([Recorded]). Without costs it deals the items
// round-robin in ID order.
package shard

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/galaxy-stack/conform/reports"
)

// A Spec is one part of n: I is 1-based.
type Spec struct{ I, N int }

// Parse reads "i/n", 1 ≤ i ≤ n.
func Parse(s string) (Spec, error) {
	a, b, ok := strings.Cut(strings.TrimSpace(s), "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return Spec{}, fmt.Errorf("%q: want i/n with 1 ≤ i ≤ n, for example 1/3", s)
	}
	return Spec{i, n}, nil
}

func (s Spec) String() string { return fmt.Sprintf("%d/%d", s.I, s.N) }

// Costs are the recorded durations of items, in milliseconds, by ID.
type Costs map[int]int64

// CostsOf returns the durations the documents recorded for their matrix
// items; an item in several documents keeps its longest duration.
func CostsOf(docs ...*reports.Document) Costs {
	c := Costs{}
	for _, d := range docs {
		for _, it := range d.Items {
			if it.ID != 0 && it.DurationMs > c[it.ID] {
				c[it.ID] = it.DurationMs
			}
		}
	}
	return c
}

// Partition splits ids into n parts, each in ID order, that together hold
// every ID once. Without costs (nil or empty) part k gets ids k, k+n,
// k+2n, ... of the sorted IDs. With costs, the IDs are taken longest
// first (ties by ID), each into the part whose total is least (ties to
// the first part); an ID without a recorded cost counts as the mean of
// the recorded ones. Parts may be empty when there are fewer IDs than
// parts.
func Partition(ids []int, n int, costs Costs) [][]int {
	sorted := slices.Clone(ids)
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	parts := make([][]int, n)
	if len(costs) == 0 {
		for k, id := range sorted {
			parts[k%n] = append(parts[k%n], id)
		}
		return parts
	}
	var sum int64
	for _, c := range costs {
		sum += c
	}
	mean := sum / int64(len(costs))
	cost := func(id int) int64 {
		if c, ok := costs[id]; ok {
			return c
		}
		return mean
	}
	slices.SortStableFunc(sorted, func(a, b int) int {
		if ca, cb := cost(a), cost(b); ca != cb {
			if ca > cb {
				return -1
			}
			return 1
		}
		return a - b
	})
	totals := make([]int64, n)
	for _, id := range sorted {
		k := 0
		for j := 1; j < n; j++ {
			if totals[j] < totals[k] {
				k = j
			}
		}
		parts[k] = append(parts[k], id)
		totals[k] += cost(id)
	}
	for _, p := range parts {
		slices.Sort(p)
	}
	return parts
}
