package canon

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
)

// Marshal returns the canonical JSON (RFC 8785 JCS, CONTRACTS §1.3–§1.4) of
// v. v may be anything encoding/json marshals: a struct (its json tags and
// omitempty/omitzero rules decide which members exist), a map, a slice, a
// [json.RawMessage] or a tree from [Parse]. Non-finite numbers are rejected
// with an error wrapping [ErrNonFinite].
//
// Plain trees are written by writePlain and most other values by a walker
// that follows encoding/json's rules with a plan cached per type (see
// plan.go); whatever the walker does not cover, or would have to refuse,
// takes the general path: encoding/json, then the one-pass rewrite. The
// result is the same on all three (the package's differential properties).
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	if writePlain(&b, v, 0) {
		return b.Bytes(), nil
	}
	if out, ok := marshalDirect(v); ok {
		return out, nil
	}
	return canonicalEncoder.marshal(v)
}

// encoder writes canonical JSON. Its compare function orders object keys;
// tests swap it for broken orders to show that the properties catch them.
type encoder struct {
	compare func(a, b string) int // nil keeps document order
}

// canonicalEncoder is the RFC 8785 encoder: keys by UTF-16 code units.
var canonicalEncoder = encoder{compare: CompareText}

// marshal converts v to JSON text with encoding/json (whose struct tags,
// omitempty/omitzero rules and Marshaler methods decide what the value is)
// and rewrites that text in canonical form in one pass.
func (e encoder) marshal(v any) ([]byte, error) {
	buf := jsonBuffers.Get().(*bytes.Buffer)
	defer putJSONBuffer(buf)
	raw, err := encodeJSON(buf, v)
	if err != nil {
		var unsupported *json.UnsupportedValueError
		if errors.As(err, &unsupported) && isNonFiniteText(unsupported.Str) {
			return nil, fmt.Errorf("%w: %s", ErrNonFinite, unsupported.Str)
		}
		return nil, fmt.Errorf("canon: %w", err)
	}
	t := transformers.Get().(*transformer)
	defer t.release()
	t.compare, t.out = e.compare, make([]byte, 0, len(raw))
	if err := t.transform(string(raw)); err != nil {
		return nil, err
	}
	return t.out, nil
}

// transformers holds transformers with their member stacks and scratch
// space grown by earlier calls.
var transformers = sync.Pool{New: func() any { return &transformer{members: make([]member, 0, 64)} }}

// release clears what t refers to and returns it to the pool, unless one
// large value made its buffers large.
func (t *transformer) release() {
	if cap(t.scratch) > 1<<20 || cap(t.members) > 1<<14 {
		return
	}
	clear(t.keys)
	*t = transformer{members: t.members[:0], keys: t.keys[:0], scratch: t.scratch[:0]}
	transformers.Put(t)
}

// jsonBuffers holds the buffers encoding/json writes into before the
// canonical rewrite.
var jsonBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// encodeJSON encodes v with encoding/json into buf, emptied first, without
// HTML escaping (<, > and & stay literal), and returns the text without its
// final newline; the result aliases buf.
func encodeJSON(buf *bytes.Buffer, v any) ([]byte, error) {
	buf.Reset()
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// putJSONBuffer returns buf to the pool unless one large value made it
// large, which the pool would then hold on to.
func putJSONBuffer(buf *bytes.Buffer) {
	if buf.Cap() <= 1<<20 {
		jsonBuffers.Put(buf)
	}
}

// isNonFiniteText reports whether s is how encoding/json names a
// non-finite float it refuses.
func isNonFiniteText(s string) bool {
	return s == "NaN" || s == "+Inf" || s == "-Inf"
}

// writeString appends s as a JSON string escaped as JSON.stringify does
// (CONTRACTS §1.4). s is valid UTF-8.
func writeString(b *bytes.Buffer, s string) {
	b.Write(appendString(b.AvailableBuffer(), s))
}
