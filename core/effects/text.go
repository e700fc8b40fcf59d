package effects

import (
	"slices"

	"github.com/galaxy-stack/conform/core/canon"
)

// sortedUnique returns the distinct values of in, ordered by [canon.CompareText].
func sortedUnique(in []string) []string {
	out := slices.Clone(in)
	slices.SortFunc(out, canon.CompareText)
	return slices.Compact(out)
}
