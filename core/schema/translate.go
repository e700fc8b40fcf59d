package schema

// The keywords this package substitutes for "minLength" and "maxLength" in
// the schema handed to the validator library, so that lengths count UTF-16
// code units. CheckDefinition rejects them in user schemas, so they cannot
// collide.
const (
	kwMinLength = "x-conform-utf16MinLength"
	kwMaxLength = "x-conform-utf16MaxLength"
)

// translate returns a copy of a checked subset schema that gives the
// validator library (compiling as draft-07) the subset's meaning: "$id" and
// "$schema" are dropped, string lengths use this package's UTF-16 keywords,
// and a node whose "const" or "enum" holds an object or array also forbids
// objects and arrays, which never equal such members under Object.is
// (CONTRACTS §5.3). Object keys and array positions are kept, so local
// "$ref" pointers still resolve.
func translate(node map[string]any) map[string]any {
	out := make(map[string]any, len(node)+1)
	composite := false
	for k, v := range node {
		switch k {
		case "$id", "$schema":
		case "minLength":
			out[kwMinLength] = v
		case "maxLength":
			out[kwMaxLength] = v
		case "items":
			out[k] = translateAny(v)
		case "additionalProperties":
			out[k] = translateAny(v)
		case "oneOf":
			branches, _ := v.([]any)
			t := make([]any, len(branches))
			for i, b := range branches {
				t[i] = translateAny(b)
			}
			out[k] = t
		case "properties", "$defs":
			m, _ := v.(map[string]any)
			t := make(map[string]any, len(m))
			for name, s := range m {
				t[name] = translateAny(s)
			}
			out[k] = t
		case "const":
			out[k] = v
			composite = composite || isComposite(v)
		case "enum":
			out[k] = v
			items, _ := v.([]any)
			for _, item := range items {
				composite = composite || isComposite(item)
			}
		default:
			out[k] = v
		}
	}
	if composite {
		out["not"] = map[string]any{"type": []any{"object", "array"}}
	}
	return out
}

func translateAny(v any) any {
	if m, ok := v.(map[string]any); ok {
		return translate(m)
	}
	return v
}

func isComposite(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return true
	}
	return false
}
