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

// MergeSchemaJSON is the JSON Schema (draft 2020-12) of the cross
// document ([MergeKind]), schema/merge.schema.json; its documents are
// result documents.
//
//go:embed schema/merge.schema.json
var MergeSchemaJSON []byte

// schemaBase is where both schemas say they live ($id).
const schemaBase = "https://github.com/galaxy-stack/conform/reports/schema/"

var (
	schemaOnce  sync.Once
	schema      *jsonschema.Schema
	mergeSchema *jsonschema.Schema
	schemaErr   error
)

// compileSchemas compiles the result and cross document schemas once.
func compileSchemas() error {
	schemaOnce.Do(func() {
		c := jsonschema.NewCompiler()
		c.AssertFormat()
		for _, s := range []struct {
			name string
			data []byte
		}{{"result.schema.json", SchemaJSON}, {"merge.schema.json", MergeSchemaJSON}} {
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(s.data))
			if err == nil {
				err = c.AddResource(schemaBase+s.name, doc)
			}
			if err != nil {
				schemaErr = fmt.Errorf("schema %s: %w", s.name, err)
				return
			}
		}
		if schema, schemaErr = c.Compile(schemaBase + "result.schema.json"); schemaErr != nil {
			return
		}
		mergeSchema, schemaErr = c.Compile(schemaBase + "merge.schema.json")
	})
	return schemaErr
}

// Schema returns the compiled JSON Schema of the result document.
func Schema() (*jsonschema.Schema, error) {
	if err := compileSchemas(); err != nil {
		return nil, err
	}
	return schema, nil
}

// MergeSchema returns the compiled JSON Schema of the cross document.
func MergeSchema() (*jsonschema.Schema, error) {
	if err := compileSchemas(); err != nil {
		return nil, err
	}
	return mergeSchema, nil
}

// ValidateMerge checks the JSON encoding of a cross document against its
// schema; the error lists every violation with its JSON location.
func ValidateMerge(data []byte) error { return validate(MergeSchema, "merge", data) }

// Validate checks the JSON encoding of a result document against the
// schema; the error lists every violation with its JSON location.
func Validate(data []byte) error { return validate(Schema, "result", data) }

// validate checks data, the JSON encoding of a document of kind what,
// against the schema compiled returns.
func validate(compiled func() (*jsonschema.Schema, error), what string, data []byte) error {
	s, err := compiled()
	if err != nil {
		return err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("the %s document is not JSON: %w", what, err)
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
