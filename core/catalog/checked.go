package catalog

// A CheckedCatalog is a private copy of a catalog whose registry document
// passed [CheckDocument]. [NewSnapshot] builds from it without validating
// the document again: nothing outside this package can change the copy,
// and the snapshot's document is that copy sorted by canonical ID, which
// the registry schema judges as it judges the copy (it checks each tool
// alone, never the order of the list). Create one with [CheckCatalog].
type CheckedCatalog struct {
	descriptors []Descriptor
}

// CheckCatalog copies descriptors and validates the copy's registry
// document as [CheckDocument] does, with the same errors (the violations
// point into the list in its given order). A host that checks the catalog
// of initialize before anything else hands the result to [NewSnapshot]
// ([Options].Checked), so that the document is validated once.
func CheckCatalog(descriptors []Descriptor) (*CheckedCatalog, error) {
	c := &CheckedCatalog{descriptors: cloneAll(descriptors)}
	if descriptors == nil {
		c.descriptors = nil
	}
	if err := CheckDocument(c.descriptors); err != nil {
		return nil, err
	}
	return c, nil
}
