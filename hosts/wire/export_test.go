package wire

// ValidateDecoded is Validate with the document decoded by
// jsonschema.UnmarshalJSON, for the differential tests.
func ValidateDecoded(name string, raw []byte) *Violation {
	s, v := schemaNamed(name)
	if v != nil {
		return v
	}
	return validateDecoded(s, raw)
}

// ViewDocument is the tree Validate checks raw on, for the differential
// tests.
var ViewDocument = viewDocument
