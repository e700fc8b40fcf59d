package schemadoc

import (
	"strings"
	"testing"
)

// TestValidateNamesTheSchema checks a document is validated against the
// schema, and that each refusal names the schema's file.
func TestValidateNamesTheSchema(t *testing.T) {
	s := New("x/thing.schema.json", "thing.schema.json", []byte(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","required":["a"],"properties":{"a":{"type":"integer"}}}`))
	if err := s.Validate([]byte(`{"a":1}`)); err != nil {
		t.Fatalf("a valid document is refused: %v", err)
	}
	for _, doc := range []string{`{"a":"x"}`, `{}`, `[]`} {
		if err := s.Validate([]byte(doc)); err == nil || !strings.Contains(err.Error(), "x/thing.schema.json") {
			t.Errorf("Validate(%s) = %v, want an error naming the schema", doc, err)
		}
	}
	if err := s.Validate([]byte(`{`)); err == nil || !strings.Contains(err.Error(), "not JSON") {
		t.Errorf("Validate of broken JSON = %v", err)
	}
	if err := New("bad.json", "bad.json", []byte(`{`)).Validate([]byte(`{}`)); err == nil || !strings.Contains(err.Error(), "bad.json") {
		t.Errorf("a schema that does not parse: %v", err)
	}
}
