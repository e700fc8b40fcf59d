package oracle

import (
	"encoding/json"
	"strings"
)

// contentHasText reports whether a tool result's content holds frag: in
// the content as sent (the original lab's rule, which its fixtures keep),
// or inside one of its string values when the content is a JSON object or
// array, so that text is found whatever escaping the host chose. Matrix
// scenarios assert only text this way, never JSON structure (a test of
// package fixtures says so): member order and whitespace are the host's.
func contentHasText(content, frag string) bool {
	if strings.Contains(content, frag) {
		return true
	}
	var v any
	trimmed := strings.TrimSpace(content)
	if !strings.HasPrefix(trimmed, "{") && !strings.HasPrefix(trimmed, "[") || json.Unmarshal([]byte(trimmed), &v) != nil {
		return false
	}
	return stringLeafHas(v, frag)
}

// stringLeafHas reports whether a string anywhere in v contains frag.
func stringLeafHas(v any, frag string) bool {
	switch x := v.(type) {
	case string:
		return strings.Contains(x, frag)
	case map[string]any:
		for _, e := range x {
			if stringLeafHas(e, frag) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if stringLeafHas(e, frag) {
				return true
			}
		}
	}
	return false
}
