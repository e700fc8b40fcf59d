package catalog

// DocumentValue is documentValue, for the tests that check it against the
// JSON round trip it replaces.
var DocumentValue = documentValue

// CheckDocumentText validates the registry document through its JSON
// text, as CheckDocument does for a document documentValue does not take.
func CheckDocumentText(descriptors []Descriptor) error {
	compiled, err := registryCompiled()
	if err != nil {
		return err
	}
	return checkDocumentText(compiled, descriptors)
}
