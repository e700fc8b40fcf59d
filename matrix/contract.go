package matrix

import "strings"

// contractNote is the line a failing scenario's message ends with: the
// section of the host author's reference that states the broken contract,
// from the Contract of the item whose directory holds rel (a scenario path
// relative to fixtures.Matrix()). It is "" for an item without one.
func contractNote(rel string) string {
	dir, _, _ := strings.Cut(rel, "/")
	for _, it := range itemCatalog {
		if scenarioDir(it) == dir && it.Contract != "" {
			return "\n  see " + it.Contract
		}
	}
	return ""
}
