package expect

import (
	"bytes"
	_ "embed"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// SchemaJSON is the JSON Schema (draft 2020-12) of an expectations file,
// schema/expectations.schema.json.
//
//go:embed schema/expectations.schema.json
var SchemaJSON []byte

var (
	schemaOnce sync.Once
	schema     *jsonschema.Schema
	schemaErr  error
)

// Schema returns the compiled JSON Schema of an expectations file.
func Schema() (*jsonschema.Schema, error) {
	schemaOnce.Do(func() {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(SchemaJSON))
		if err != nil {
			schemaErr = fmt.Errorf("expectations schema: %w", err)
			return
		}
		c := jsonschema.NewCompiler()
		c.AssertFormat()
		const url = "expectations.schema.json"
		if err := c.AddResource(url, doc); err != nil {
			schemaErr = fmt.Errorf("expectations schema: %w", err)
			return
		}
		schema, schemaErr = c.Compile(url)
	})
	return schema, schemaErr
}

// Validate checks data against the schema of an expectations file; the
// error lists every violation with its JSON location.
func Validate(data []byte) error {
	s, err := Schema()
	if err != nil {
		return err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	if err := s.Validate(v); err != nil {
		return fmt.Errorf("does not follow schema/expectations.schema.json: %w", err)
	}
	return nil
}
