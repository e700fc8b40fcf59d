package shard

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// exactCover checks that parts hold every ID of ids once, each part in ID
// order.
func exactCover(t *testing.T, ids []int, parts [][]int) {
	t.Helper()
	var all []int
	for _, p := range parts {
		if !slices.IsSorted(p) {
			t.Errorf("part %v is not in ID order", p)
		}
		all = append(all, p...)
	}
	slices.Sort(all)
	want := slices.Clone(ids)
	slices.Sort(want)
	if !slices.Equal(all, want) {
		t.Fatalf("parts %v do not cover %v exactly once", parts, ids)
	}
}

func TestPartitionRoundRobin(t *testing.T) {
	ids := []int{13, 1, 2, 101, 3, 39}
	got := Partition(ids, 2, nil)
	want := [][]int{{1, 3, 39}, {2, 13, 101}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Partition = %v, want %v", got, want)
	}
	exactCover(t, ids, Partition(ids, 4, nil))
	if p := Partition([]int{1}, 3, nil); len(p) != 3 || len(p[1]) != 0 {
		t.Errorf("one item in three parts = %v, want it in the first", p)
	}
}

// With durations, the long item goes alone and the short ones share.
func TestPartitionBalancesByCost(t *testing.T) {
	ids := []int{1, 2, 3, 4, 39}
	costs := Costs{1: 100, 2: 100, 3: 100, 39: 1000} // 4 has none: the mean, 325
	got := Partition(ids, 2, costs)
	want := [][]int{{39}, {1, 2, 3, 4}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Partition = %v, want %v", got, want)
	}
}

// Whatever the items, parts and costs, the partition is an exact cover
// and does not depend on the order the IDs come in.
func TestPartitionIsADeterministicExactCover(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		ids := r.Perm(40)[:1+r.IntN(39)]
		n := 1 + r.IntN(8)
		var costs Costs
		if r.IntN(2) == 0 {
			costs = Costs{}
			for _, id := range ids {
				if r.IntN(3) > 0 {
					costs[id] = int64(r.IntN(5000))
				}
			}
		}
		a := Partition(ids, n, costs)
		exactCover(t, ids, a)
		shuffled := slices.Clone(ids)
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		if b := Partition(shuffled, n, costs); !reflect.DeepEqual(a, b) {
			t.Fatalf("Partition depends on input order: %v and %v", a, b)
		}
	}
}

func TestParse(t *testing.T) {
	if s, err := Parse("2/3"); err != nil || s != (Spec{2, 3}) {
		t.Errorf("Parse(2/3) = %v, %v", s, err)
	}
	for _, bad := range []string{"", "0/3", "4/3", "1", "a/b", "1/0", "-1/2"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}

// The embedded table parses, and names only items of the matrix with a
// positive cost.
func TestRecorded(t *testing.T) {
	c, err := Recorded()
	if err != nil {
		t.Fatal(err)
	}
	if len(c) == 0 {
		t.Fatal("the embedded cost table is empty")
	}
	for id, ms := range c {
		if id <= 0 || ms < 0 {
			t.Errorf("item %d costs %d ms", id, ms)
		}
	}
}
