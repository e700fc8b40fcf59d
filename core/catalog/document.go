package catalog

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"reflect"
	"sync"

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
//
// The validator judges the document's JSON form. CheckDocument builds that
// form from the descriptors directly ([documentValue]); only a document
// holding a value that walk does not take (see [schema.Decoded]) is encoded
// and decoded again, which gives the same answer.
func CheckDocument(descriptors []Descriptor) error {
	compiled, err := registryCompiled()
	if err != nil {
		return fmt.Errorf("tool registry document is invalid: %w", err)
	}
	if inst, ok := documentValue(descriptors); ok {
		err = compiled.ValidateDecoded(inst)
	} else {
		err = checkDocumentText(compiled, descriptors)
	}
	if err != nil {
		return fmt.Errorf("tool registry document is invalid: %w", err)
	}
	return nil
}

// checkDocumentText validates the document through its JSON text.
func checkDocumentText(compiled *schema.Compiled, descriptors []Descriptor) error {
	doc := Document{SchemaVersion: SchemaVersion, Tools: descriptors}
	if doc.Tools == nil {
		doc.Tools = []Descriptor{}
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		return fmt.Errorf("schema: value is not JSON: %w", err)
	}
	return compiled.ValidateJSON(raw)
}

// registryCompiled is RegistrySchema compiled once, on first use.
var registryCompiled = sync.OnceValues(func() (*schema.Compiled, error) {
	s := RegistrySchema()
	schemasByType = judgesSchemasByType(s)
	return schema.Compile(s)
})

// schemasByType is set by registryCompiled: whether the registry schema
// judges a descriptor's inputSchema and outputSchema by their JSON type
// alone (see judgesSchemasByType).
var schemasByType bool

// judgesSchemasByType reports whether the registry schema s says of a
// descriptor's inputSchema and outputSchema only that each is an object
// ({"$ref":"#/$defs/schemaObject"}, which is {"type":"object"}). The
// validator then never looks inside them, and documentValue hands it the
// descriptor's own maps instead of building their decoded form.
func judgesSchemasByType(s map[string]any) bool {
	defs, _ := s["$defs"].(map[string]any)
	if defs == nil {
		return false
	}
	descriptor, _ := defs["descriptor"].(map[string]any)
	props, _ := descriptor["properties"].(map[string]any)
	ref := map[string]any{"$ref": "#/$defs/schemaObject"}
	return reflect.DeepEqual(defs["schemaObject"], map[string]any{"type": "object"}) &&
		reflect.DeepEqual(props["inputSchema"], ref) && reflect.DeepEqual(props["outputSchema"], ref)
}
