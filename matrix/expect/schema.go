package expect

import (
	_ "embed"

	"github.com/galaxy-stack/conform/internal/schemadoc"
)

// SchemaJSON is the JSON Schema (draft 2020-12) of an expectations file,
// schema/expectations.schema.json.
//
//go:embed schema/expectations.schema.json
var SchemaJSON []byte

var schema = schemadoc.New("matrix/expect/schema/expectations.schema.json", "expectations.schema.json", SchemaJSON)

// Validate checks data against the schema of an expectations file; the
// error lists every violation with its JSON location.
func Validate(data []byte) error { return schema.Validate(data) }
