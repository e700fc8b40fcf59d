package oracle

import (
	"encoding/json"
	"strings"
)

// contentHasText reports whether a tool result's content holds frag as
// text: inside one of its string values when the content is a JSON
// object or array, so that member order, whitespace and escaping — the
// host's choices — never decide; in the content itself otherwise.
func contentHasText(content, frag string) bool {
	var v any
	trimmed := strings.TrimSpace(content)
	if !strings.HasPrefix(trimmed, "{") && !strings.HasPrefix(trimmed, "[") || json.Unmarshal([]byte(trimmed), &v) != nil {
		return strings.Contains(content, frag)
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
