package checkpoint

// referenceOptions returns o as validation was before it was made cheaper:
// the unsanitized payload's canonical JSON written by o.marshal (the parsed
// Object's MarshalJSON and the one-pass rewrite) instead of
// canon.MarshalTree, and the content hash taken by marshalling the whole
// hash envelope again instead of assembling it around the payload's JSON.
// Parsing needs no reference here: core/canon compares its one-pass tree
// builder with the token decoder it replaced.
func referenceOptions(o options) options {
	o.marshalTree = o.marshal
	o.wrapPayload = nil
	return o
}

// referenceValidate is Validate as it was; the differential properties
// compare Validate with it.
func referenceValidate(o options, data []byte) []Issue {
	return referenceOptions(o).validate(data)
}

// referenceAssert is Assert as it was, on referenceValidate.
func referenceAssert(data []byte) (*Checkpoint, error) {
	return referenceOptions(defaults()).assert(data)
}
