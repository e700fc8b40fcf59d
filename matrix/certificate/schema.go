package certificate

import (
	_ "embed"

	"github.com/galaxy-stack/conform/internal/schemadoc"
)

// SchemaJSON is the JSON Schema (draft 2020-12) of a certificate,
// schema/certificate.schema.json.
//
//go:embed schema/certificate.schema.json
var SchemaJSON []byte

var schema = schemadoc.New("matrix/certificate/schema/certificate.schema.json",
	"https://github.com/galaxy-stack/conform/matrix/certificate/schema/certificate.schema.json", SchemaJSON)

// Validate checks data against the certificate schema; the error lists
// every violation with its JSON location.
func Validate(data []byte) error { return schema.Validate(data) }
