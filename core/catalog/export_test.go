package catalog

// DocumentValue is documentValue building the decoded form of the
// descriptors' schemas too, for the tests that check it against the JSON
// round trip it replaces.
func DocumentValue(ds []Descriptor) (any, bool) { return documentValueOf(ds, false) }

// JudgesSchemasByType reports whether CheckDocument hands the validator
// the descriptors' own schema maps (see judgesSchemasByType).
func JudgesSchemasByType() bool {
	_, _ = registryCompiled()
	return schemasByType
}

// CheckDocumentText validates the registry document through its JSON
// text, as CheckDocument does for a document documentValue does not take.
func CheckDocumentText(descriptors []Descriptor) error {
	compiled, err := registryCompiled()
	if err != nil {
		return err
	}
	return checkDocumentText(compiled, descriptors)
}

// JudgesSchemasByTypeOf is judgesSchemasByType.
var JudgesSchemasByTypeOf = judgesSchemasByType
