package catalog

import (
	_ "embed"
	"encoding/json"
	"fmt"

	"github.com/galaxy-stack/conform/core/schema"
)

//go:embed registry.schema.json
var registrySchemaText []byte

// RegistrySchema returns the JSON Schema of the registry document
// {"schemaVersion":"2.0.0","tools":[...]} (CONTRACTS §4.2): every
// descriptor field, its enum or range, and no other keys. It is written in
// the supported subset; the caller owns the returned value.
func RegistrySchema() map[string]any {
	var s map[string]any
	if err := json.Unmarshal(registrySchemaText, &s); err != nil {
		panic(fmt.Sprintf("catalog: embedded registry schema: %v", err))
	}
	return s
}

// Document is the registry document of CONTRACTS §4.2.
type Document struct {
	SchemaVersion string       `json:"schemaVersion"`
	Tools         []Descriptor `json:"tools"`
}

// CheckDocument validates {"schemaVersion":"2.0.0","tools":descriptors}
// against [RegistrySchema] (CONTRACTS §8.1 step 2). The error wraps the
// [*schema.ValueError], whose violations point into the document
// ("/tools/3/timeoutMs").
func CheckDocument(descriptors []Descriptor) error {
	doc := Document{SchemaVersion: SchemaVersion, Tools: descriptors}
	if doc.Tools == nil {
		doc.Tools = []Descriptor{}
	}
	if err := schema.Validate(RegistrySchema(), doc); err != nil {
		return fmt.Errorf("tool registry document is invalid: %w", err)
	}
	return nil
}
