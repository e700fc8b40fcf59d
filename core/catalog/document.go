package catalog

import (
	"crypto/sha256"
	_ "embed"
	"encoding/json"
	"fmt"
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
func CheckDocument(descriptors []Descriptor) error {
	doc := Document{SchemaVersion: SchemaVersion, Tools: descriptors}
	if doc.Tools == nil {
		doc.Tools = []Descriptor{}
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		return fmt.Errorf("tool registry document is invalid: schema: value is not JSON: %w", err)
	}
	key := sha256.Sum256(raw)
	if validDocuments.has(key) {
		return nil
	}
	compiled, err := registryCompiled()
	if err != nil {
		return fmt.Errorf("tool registry document is invalid: %w", err)
	}
	if err := compiled.ValidateJSON(raw); err != nil {
		return fmt.Errorf("tool registry document is invalid: %w", err)
	}
	validDocuments.add(key)
	return nil
}

// registryCompiled is RegistrySchema compiled once, on first use.
var registryCompiled = sync.OnceValues(func() (*schema.Compiled, error) {
	return schema.Compile(RegistrySchema())
})

// validDocuments remembers the SHA-256 of the JSON texts of the last
// registry documents found valid. The validator judges exactly that text,
// so a document whose encoding is the same is valid without validating it
// again: a host checks the catalog of initialize once for the request and
// once for its registry snapshot.
var validDocuments = &documentMemo{seen: map[[sha256.Size]byte]bool{}}

// documentMemoSize bounds the memo; it is emptied when full.
const documentMemoSize = 16

type documentMemo struct {
	mu   sync.Mutex
	seen map[[sha256.Size]byte]bool
}

func (m *documentMemo) has(key [sha256.Size]byte) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.seen[key]
}

func (m *documentMemo) add(key [sha256.Size]byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.seen) >= documentMemoSize {
		clear(m.seen)
	}
	m.seen[key] = true
}
