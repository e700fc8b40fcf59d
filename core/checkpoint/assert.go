package checkpoint

import (
	"bytes"
	"encoding/json"

	"github.com/galaxy-stack/conform/core/canon"
)

// Assert validates serialized checkpoint JSON like [Validate] and returns
// the checkpoint it holds, decoded afresh (it shares nothing with data or
// with any earlier result). On any issue it returns an *[IntegrityError]
// whose message joins "<path>: <message>" for each issue with spaces
// (CONTRACTS §11.6 assertAiCoderRunCheckpoint).
func Assert(data []byte) (*Checkpoint, error) {
	return defaults().assert(data)
}

func (o options) assert(data []byte) (*Checkpoint, error) {
	tree, err := canon.Parse(data)
	if err != nil {
		return nil, &IntegrityError{Message: "Checkpoint cannot be snapshotted safely: " + err.Error(),
			Issues: []Issue{{Code: CodeInvalidField, Message: "Checkpoint cannot be snapshotted safely: " + err.Error(), Path: "$"}}}
	}
	if issues := o.validateTree(tree); len(issues) > 0 {
		return nil, newIssuesError(issues)
	}
	canonical, err := o.marshalTree(tree)
	if err != nil {
		return nil, &IntegrityError{Message: "Checkpoint cannot be snapshotted safely: " + err.Error()}
	}
	var cp Checkpoint
	dec := json.NewDecoder(bytes.NewReader(canonical))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cp); err != nil {
		return nil, &IntegrityError{Message: "Checkpoint cannot be snapshotted safely: " + err.Error()}
	}
	return &cp, nil
}
