package replay

import "slices"

// Masked is what Mask puts in place of a masked content hash.
const Masked = "masked"

// Mask replaces the content hashes of the named workspace paths, in write
// evidence and in the final snapshot, with Masked: for a scenario that
// writes machine-specific content on purpose (an inode number, say), so
// that its transcript compares across runs. It returns t.
func (t *Transcript) Mask(paths ...string) *Transcript {
	if len(paths) == 0 {
		return t
	}
	m := Masked
	maskWrites := func(ws []Write) {
		for i := range ws {
			if slices.Contains(paths, ws[i].Path) {
				if ws[i].BeforeHash != nil {
					ws[i].BeforeHash = &m
				}
				if ws[i].AfterHash != nil {
					ws[i].AfterHash = &m
				}
			}
		}
	}
	for _, e := range t.Events {
		if e.Result != nil && e.Result.Effects != nil {
			maskWrites(e.Result.Effects.Writes)
		}
	}
	maskWrites(t.Final.Writes)
	for i, e := range t.Final.Workspace {
		if slices.Contains(paths, e.Path) && e.Hash != "" {
			t.Final.Workspace[i].Hash = Masked
		}
	}
	return t
}
