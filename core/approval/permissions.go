package approval

import (
	"slices"

	"github.com/galaxy-stack/conform/core/canon"
)

// ManifestPermissions returns the permissions a decoded JSON manifest
// grants: the trimmed, non-empty strings of its "permissions" array, sorted
// and without duplicates. Anything else (no object, no array, non-string
// entries) grants nothing.
func ManifestPermissions(manifest any) []string {
	m, ok := manifest.(map[string]any)
	if !ok {
		return nil
	}
	list, ok := m["permissions"].([]any)
	if !ok {
		return nil
	}
	var out []string
	for _, v := range list {
		s, ok := v.(string)
		if !ok {
			continue
		}
		if s = canon.TrimJSSpace(s); s != "" {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
