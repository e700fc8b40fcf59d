package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/galaxy-stack/conform/matrix/selftest"
)

// printBySentence prints the kill matrix grouped by guarantee sentence:
// for each sentence the run attacked, how many faults break it and how
// each ended; then the sentences no fault of the run attacks.
func printBySentence(w io.Writer, res *selftest.Result) {
	groups := res.BySentence()
	fmt.Fprintln(w, "\nkill matrix by guarantee sentence (the faults that break each, and how each ended)")
	var none []string
	for _, sa := range groups {
		if len(sa.Attacks) == 0 {
			key := sa.Key
			if sa.Uncheckable {
				key += " (uncheckable)"
			}
			none = append(none, key)
			continue
		}
		parts := make([]string, len(sa.Attacks))
		for i, a := range sa.Attacks {
			name := a.Name
			if a.Kind != selftest.KindMutant {
				name = a.Kind + ":" + name
			}
			parts[i] = name + " " + a.Status
		}
		fmt.Fprintf(w, "  %-4s %2d  %s\n", sa.Key, len(sa.Attacks), strings.Join(parts, ", "))
	}
	fmt.Fprintf(w, "%d of %d sentences attacked by a fault of this run", len(groups)-len(none), len(groups))
	if len(none) > 0 {
		fmt.Fprintf(w, "; none attacks %s", strings.Join(none, ", "))
	}
	fmt.Fprintln(w)
}
