package canon

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// An Object is a JSON object that keeps its members in document order, as
// [Parse] found them. It marshals (with encoding/json) to a JSON object in
// that order; [Marshal] sorts it.
type Object []Member

// A Member is one name/value pair of an [Object].
type Member struct {
	Key   string
	Value any
}

// Get returns the value of the member named key and whether it exists.
func (o Object) Get(key string) (any, bool) {
	for _, m := range o {
		if m.Key == key {
			return m.Value, true
		}
	}
	return nil, false
}

// MarshalJSON writes the members in order.
func (o Object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(m.Key)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(m.Value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Parse decodes one JSON text into a tree of nil, bool, string,
// [json.Number], []any and [Object] values, keeping object members in
// document order. It rejects invalid UTF-8, duplicate keys within one
// object, and anything after the value except whitespace.
//
// Valid JSON is built into its tree in one pass over the text (see
// parse.go); any other text takes the token-by-token decoding, which
// words its error.
func Parse(data []byte) (any, error) {
	if utf8.Valid(data) && json.Valid(data) {
		return buildTree(string(data))
	}
	return parseDecoding(data)
}

// parseDecoding is [Parse] with encoding/json's token decoder: the result
// and the error for every text.
func parseDecoding(data []byte) (any, error) {
	if !utf8.Valid(data) {
		return nil, errors.New("canon: JSON text is not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := parseValue(dec)
	if err != nil {
		return nil, fmt.Errorf("canon: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("canon: unexpected data after the JSON value")
	}
	return v, nil
}

// parseValue reads one value from dec.
func parseValue(dec *json.Decoder) (any, error) {
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
				v, err := parseValue(dec)
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
			obj := Object{}
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
				v, err := parseValue(dec)
				if err != nil {
					return nil, err
				}
				obj = append(obj, Member{Key: key, Value: v})
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return obj, nil
		}
		return nil, fmt.Errorf("unexpected delimiter %q", rune(t))
	default:
		return t, nil // nil, bool, string or json.Number
	}
}
