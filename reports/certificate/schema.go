package certificate

import (
	"bytes"
	_ "embed"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// SchemaJSON is the JSON Schema (draft 2020-12) of a certificate,
// schema/certificate.schema.json.
//
//go:embed schema/certificate.schema.json
var SchemaJSON []byte

var (
	schemaOnce sync.Once
	schema     *jsonschema.Schema
	schemaErr  error
)

// Schema returns the compiled JSON Schema of a certificate.
func Schema() (*jsonschema.Schema, error) {
	schemaOnce.Do(func() {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(SchemaJSON))
		if err != nil {
			schemaErr = fmt.Errorf("certificate schema: %w", err)
			return
		}
		c := jsonschema.NewCompiler()
		c.AssertFormat()
		const url = "https://github.com/galaxy-stack/conform/reports/certificate/schema/certificate.schema.json"
		if err := c.AddResource(url, doc); err != nil {
			schemaErr = fmt.Errorf("certificate schema: %w", err)
			return
		}
		schema, schemaErr = c.Compile(url)
	})
	return schema, schemaErr
}

// Validate checks data against the certificate schema; the error lists
// every violation with its JSON location.
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
		return fmt.Errorf("does not follow reports/certificate/schema/certificate.schema.json: %w", err)
	}
	return nil
}
