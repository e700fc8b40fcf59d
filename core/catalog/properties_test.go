package catalog_test

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/galaxy-stack/conform/core/catalog"
)

var modes = []string{"auto", "refactor", "review_only", "scaffold", "validate_only"}

// TestPropertyOrderIndependence is the Go form of the original test "seeded
// registry permutations cannot change hashes, ordering, or activation
// results": for a random mode, subset of available tools and of granted
// permissions, two snapshots built from differently ordered inputs are
// equal, and two registries activating the same tools in different orders
// (some twice, some outside the snapshot) reach the same active hash and
// definitions.
func TestPropertyOrderIndependence(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		mode := rapid.SampledFrom(modes).Draw(t, "mode")
		available := rapid.SliceOfDistinct(rapid.SampledFrom(catalog.IDs()), rapid.ID).Draw(t, "available")
		granted := rapid.SliceOfDistinct(rapid.SampledFrom(allPermissions), rapid.ID).Draw(t, "granted")
		descriptors := rapid.Permutation(catalog.Core()).Draw(t, "descriptors")

		left, err := catalog.NewSnapshot(catalog.Options{Mode: mode, AvailableToolIDs: available, GrantedPermissions: granted, Descriptors: descriptors})
		if err != nil {
			t.Fatal(err)
		}
		right, err := catalog.NewSnapshot(catalog.Options{
			Mode: mode, AvailableToolIDs: rapid.Permutation(available).Draw(t, "available2"),
			GrantedPermissions: rapid.Permutation(granted).Draw(t, "granted2"),
		})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(left, right); diff != "" {
			t.Fatalf("snapshots differ (-left +right):\n%s", diff)
		}
		if !slices.IsSorted(ids(left.Descriptors)) {
			t.Fatalf("snapshot not sorted: %v", ids(left.Descriptors))
		}

		activate := rapid.SliceOf(rapid.SampledFrom(append(catalog.IDs(), "nope.tool"))).Draw(t, "activate")
		lr, err := catalog.NewRegistry(left)
		if err != nil {
			t.Fatal(err)
		}
		rr, err := catalog.NewRegistry(right)
		if err != nil {
			t.Fatal(err)
		}
		var lres, rres []bool
		for _, id := range activate {
			lres = append(lres, lr.Activate(id))
		}
		reordered := rapid.Permutation(activate).Draw(t, "reordered")
		for _, id := range reordered {
			rres = append(rres, rr.Activate(id))
		}
		if lr.ActiveHash() != rr.ActiveHash() {
			t.Fatalf("active hashes differ: %s vs %s", lr.ActiveHash(), rr.ActiveHash())
		}
		if diff := cmp.Diff(lr.Definitions(), rr.Definitions()); diff != "" {
			t.Fatalf("definitions differ:\n%s", diff)
		}
		names := map[string]bool{}
		for _, d := range lr.Definitions() {
			names[d.Function.Name] = true
		}
		if len(names) != len(lr.Definitions()) {
			t.Fatalf("duplicate model names among definitions")
		}
		// Activation of a snapshot tool always succeeds (the catalog fits
		// the budget); anything else never does.
		inSnapshot := map[string]bool{}
		for _, d := range left.Descriptors {
			inSnapshot[d.ID] = true
		}
		for i, id := range activate {
			if lres[i] != inSnapshot[id] {
				t.Fatalf("Activate(%q) = %t, in snapshot %t", id, lres[i], inSnapshot[id])
			}
		}
		for i, id := range reordered {
			if rres[i] != inSnapshot[id] {
				t.Fatalf("Activate(%q) in the other order = %t, in snapshot %t", id, rres[i], inSnapshot[id])
			}
		}
	})
}
