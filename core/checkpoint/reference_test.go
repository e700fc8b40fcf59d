package checkpoint

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/faults"
)

// referenceValidate is Validate as it was before parsing and the integrity
// check were made cheaper: the tree from encoding/json's token decoder, the
// unsanitized payload's canonical JSON by canon.Marshal (the Object's
// MarshalJSON and the rewrite), and the content hash by marshalling the
// hash envelope again. The differential properties compare Validate with
// it.
func referenceValidate(o options, data []byte) []Issue {
	tree, err := referenceParse(data)
	if err != nil {
		return []Issue{{Code: CodeInvalidField, Message: "Checkpoint cannot be snapshotted safely: " + err.Error(), Path: "$"}}
	}
	c := &checker{}
	if !isRecord(tree) {
		c.add("$", "Checkpoint must be an object.")
		return c.issues
	}
	c.rejectUnknown(tree, "", topLevelFields...)
	var forbidden []string
	walkForbidden(tree, "", &forbidden)
	for _, p := range forbidden {
		c.add(p, "Checkpoint contains a forbidden raw reasoning or secret field.")
	}
	c.checkShape(tree)
	if len(c.issues) > 0 {
		return c.issues
	}
	c.checkRelations(tree)
	if len(c.issues) > 0 {
		return c.issues
	}
	referenceIntegrity(o, c, tree)
	if len(c.issues) == 0 {
		return nil
	}
	return c.issues
}

// referenceParse is canon.Parse as it was: encoding/json's token decoder.
func referenceParse(data []byte) (any, error) {
	if !utf8.Valid(data) {
		return nil, errors.New("canon: JSON text is not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := referenceParseValue(dec)
	if err != nil {
		return nil, fmt.Errorf("canon: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("canon: unexpected data after the JSON value")
	}
	return v, nil
}

func referenceParseValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			return nil, io.ErrUnexpectedEOF
		}
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '[':
			arr := []any{}
			for dec.More() {
				v, err := referenceParseValue(dec)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return arr, nil
		case '{':
			obj := canon.Object{}
			seen := map[string]bool{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, ok := kt.(string)
				if !ok {
					return nil, fmt.Errorf("object key is %v, not a string", kt)
				}
				if seen[key] {
					return nil, fmt.Errorf("duplicate object key %q", key)
				}
				seen[key] = true
				v, err := referenceParseValue(dec)
				if err != nil {
					return nil, err
				}
				obj = append(obj, canon.Member{Key: key, Value: v})
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return obj, nil
		}
		return nil, fmt.Errorf("unexpected delimiter %q", rune(t))
	default:
		return t, nil
	}
}

// referenceIntegrity is checkIntegrity as it was.
func referenceIntegrity(o options, c *checker, tree any) {
	obj := tree.(canon.Object)
	raw := make(canon.Object, 0, len(obj))
	for _, m := range obj {
		if m.Key != "contentHash" && m.Key != "createdAt" && m.Key != "reason" {
			raw = append(raw, m)
		}
	}
	rawJSON, err := o.marshal(raw)
	if err != nil {
		c.add("$", "Checkpoint cannot be snapshotted safely: "+err.Error())
		return
	}
	var payload Payload
	dec := json.NewDecoder(bytes.NewReader(rawJSON))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&payload); err != nil {
		c.add("$", "Checkpoint cannot be snapshotted safely: "+err.Error())
		return
	}
	sanitized := o.sanitize(payload)
	sanitizedJSON, err := o.marshal(sanitized)
	if err != nil {
		c.add("$", "Checkpoint cannot be snapshotted safely: "+err.Error())
		return
	}
	if !bytes.Equal(rawJSON, sanitizedJSON) {
		c.add("$", "Checkpoint contains text that was not sanitized before persistence.")
		return
	}
	if o.skipHashCheck || faults.On(faults.CheckpointSkipContentHash) {
		return
	}
	createdAt, _ := obj.Get("createdAt")
	reason, _ := obj.Get("reason")
	want, err := o.hash(createdAt.(string), &sanitized, Reason(reason.(string)))
	contentHash, _ := obj.Get("contentHash")
	if err != nil || want != contentHash {
		c.issues = append(c.issues, Issue{Code: CodeHashMismatch, Message: "Checkpoint content hash does not match its payload.", Path: "contentHash"})
	}
}
