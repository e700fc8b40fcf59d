package schema

import "strings"

// PointerToken escapes one reference token of a JSON pointer (RFC 6901):
// "~" as "~0", "/" as "~1".
func PointerToken(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

// unescapeToken decodes one reference token of a JSON pointer.
func unescapeToken(s string) string {
	return strings.NewReplacer("~1", "/", "~0", "~").Replace(s)
}

// JoinPointer builds a JSON pointer from unescaped tokens ("" for none).
func JoinPointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(PointerToken(t))
	}
	return b.String()
}

// resolveLocalRef resolves a local "$ref" ("#" or "#/a/b") against root the
// way the original does: every step must be an object (arrays are not
// walked) and the target must be an object. It reports false otherwise.
func resolveLocalRef(root map[string]any, ref string) (map[string]any, bool) {
	if ref == "#" {
		return root, true
	}
	rest, ok := strings.CutPrefix(ref, "#/")
	if !ok {
		return nil, false
	}
	var cur any = root
	for _, tok := range strings.Split(rest, "/") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		cur, ok = m[unescapeToken(tok)]
		if !ok {
			return nil, false
		}
	}
	m, ok := cur.(map[string]any)
	return m, ok
}
