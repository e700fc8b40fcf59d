package matrix

// contractNote is the line a failed item's reason ends with: the section
// of the host author's reference that states the contract the item checks
// (its Contract), or "" for an item without one.
func contractNote(it Item) string {
	if it.Contract == "" {
		return ""
	}
	return "\nsee " + it.Contract
}
