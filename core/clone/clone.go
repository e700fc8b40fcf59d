// Package clone makes deep copies of the values core passes around: an
// optional scalar behind a pointer, and a JSON value tree as encoding/json
// decodes it (tool arguments, schemas), so a copy handed out shares no
// memory with the original; and it compares such trees exactly ([Equal]).
package clone

import "encoding/json"

// Ptr returns a pointer to a copy of *p, or nil for nil.
func Ptr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// JSON deep-copies a JSON value as encoding/json decodes it: maps of
// string to any and slices of any are copied all the way down; nil,
// strings, booleans, float64, json.Number, int and int64 are returned as
// they are. A value of any other type is copied through a JSON round trip,
// which turns it into that generic form (a []string becomes a []any), or
// nil when it does not marshal. The copy's JSON is the original's.
func JSON(v any) any {
	switch t := v.(type) {
	case nil, string, bool, float64, json.Number, int, int64:
		return t
	case map[string]any:
		return Object(t)
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = JSON(e)
		}
		return out
	default:
		data, err := json.Marshal(t)
		if err != nil {
			return nil
		}
		var out any
		if json.Unmarshal(data, &out) != nil {
			return nil
		}
		return out
	}
}

// Object deep-copies a JSON object as JSON does; nil stays nil.
func Object(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = JSON(v)
	}
	return out
}
