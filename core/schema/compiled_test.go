package schema_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/schema"
)

// TestCompiledAnswersAsValidate checks that a compiled schema answers as
// Validate does, whether it is given the value or its text as
// canon.Stringify writes it (no HTML escaping; encoding/json escapes <, >
// and &): callers that already hold that text validate it instead of
// encoding the value again.
func TestCompiledAnswersAsValidate(t *testing.T) {
	s := map[string]any{
		"type": "object", "additionalProperties": false, "required": []any{"path", "n"},
		"properties": map[string]any{
			"path": map[string]any{"type": "string", "minLength": 1, "maxLength": 6, "pattern": "^[a-z<>&/\u2028]*$"},
			"n":    map[string]any{"type": "integer", "minimum": 0, "maximum": 1000},
			"tags": map[string]any{"type": "array", "items": map[string]any{"type": "string", "enum": []any{"a", "<b>", "&"}}, "maxItems": 2},
		},
	}
	v := schema.NewValidator()
	c, err := v.Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	text := rapid.StringOfN(rapid.SampledFrom([]rune{'a', 'z', '<', '>', '&', '/', '\u2028', 'é', '\ufffd', '"'}), 0, 8, -1)
	rapid.Check(t, func(t *rapid.T) {
		value := map[string]any{}
		if rapid.Bool().Draw(t, "hasPath") {
			value["path"] = text.Draw(t, "path")
		}
		if rapid.Bool().Draw(t, "hasN") {
			value["n"] = rapid.SampledFrom([]any{-1, 0, 7, 1000, 1001, 2.5, 1e3, "7", nil}).Draw(t, "n")
		}
		if rapid.Bool().Draw(t, "hasTags") {
			value["tags"] = rapid.SliceOfN(rapid.SampledFrom([]string{"a", "<b>", "&", "b"}), 0, 3).Draw(t, "tags")
		}
		if rapid.Bool().Draw(t, "hasExtra") {
			value[text.Draw(t, "extraKey")] = true
		}
		want := errText(v.Validate(s, value))
		if got := errText(c.Validate(value)); got != want {
			t.Fatalf("Compiled.Validate: %q, Validate: %q", got, want)
		}
		raw, err := canon.Stringify(value)
		if err != nil {
			t.Fatal(err)
		}
		if got := errText(c.ValidateJSON(raw)); got != want {
			t.Fatalf("Compiled.ValidateJSON of %s: %q, Validate: %q", raw, got, want)
		}
	})
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
