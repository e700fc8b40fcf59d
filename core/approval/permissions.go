package approval

import (
	"slices"
	"strings"
	"unicode"
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
		if s = strings.TrimFunc(s, jsSpace); s != "" {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// jsSpace reports the white space JavaScript's trim removes.
func jsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0xFEFF, 0x2028, 0x2029:
		return true
	}
	return unicode.Is(unicode.Zs, r)
}
