package reports

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// SchemaJSON is the JSON Schema (draft 2020-12) of the result document,
// schema/result.schema.json.
//
//go:embed schema/result.schema.json
var SchemaJSON []byte

var (
	schemaOnce sync.Once
	schema     *jsonschema.Schema
	schemaErr  error
)

// Schema returns the compiled JSON Schema of the result document.
func Schema() (*jsonschema.Schema, error) {
	schemaOnce.Do(func() {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(SchemaJSON))
		if err != nil {
			schemaErr = fmt.Errorf("result schema: %w", err)
			return
		}
		c := jsonschema.NewCompiler()
		c.AssertFormat()
		const url = "result.schema.json"
		if err := c.AddResource(url, doc); err != nil {
			schemaErr = fmt.Errorf("result schema: %w", err)
			return
		}
		schema, schemaErr = c.Compile(url)
	})
	return schema, schemaErr
}

// Validate checks the JSON encoding of a result document against the
// schema; the error lists every violation with its JSON location.
func Validate(data []byte) error {
	s, err := Schema()
	if err != nil {
		return err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("the result document is not JSON: %w", err)
	}
	return s.Validate(v)
}

// Decode reads a result document, checking it against the schema first;
// a document of another schema version is refused with the version named.
func Decode(data []byte) (*Document, error) {
	var head struct {
		SchemaVersion string `json:"schemaVersion"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("not a conform result document: %w", err)
	}
	if head.SchemaVersion != SchemaVersion {
		return nil, fmt.Errorf("result document of schema version %q; this conform reads version %q (re-run the certification with this conform)", head.SchemaVersion, SchemaVersion)
	}
	if err := Validate(data); err != nil {
		return nil, fmt.Errorf("not a valid result document: %w", err)
	}
	var d Document
	if err := json.Unmarshal(data, &d); err != nil {
		return nil, err
	}
	return &d, nil
}
