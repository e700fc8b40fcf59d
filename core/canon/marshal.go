package canon

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/gowebpki/jcs"
)

// Marshal returns the canonical JSON (RFC 8785 JCS, CONTRACTS §1.3–§1.4) of
// v. v may be anything encoding/json marshals: a struct (its json tags and
// omitempty/omitzero rules decide which members exist), a map, a slice, a
// [json.RawMessage] or a tree from [Parse]. Non-finite numbers are rejected
// with an error wrapping [ErrNonFinite].
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	if writePlain(&b, v, 0) {
		return b.Bytes(), nil
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

// marshal converts v to JSON text with encoding/json, parses it and writes
// the canonical form.
func (e encoder) marshal(v any) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		var unsupported *json.UnsupportedValueError
		if errors.As(err, &unsupported) && isNonFiniteText(unsupported.Str) {
			return nil, fmt.Errorf("%w: %s", ErrNonFinite, unsupported.Str)
		}
		return nil, fmt.Errorf("canon: %w", err)
	}
	tree, err := Parse(raw)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.Grow(len(raw))
	if err := e.write(&b, tree); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// isNonFiniteText reports whether s is how encoding/json names a
// non-finite float it refuses.
func isNonFiniteText(s string) bool {
	return s == "NaN" || s == "+Inf" || s == "-Inf"
}

// write appends the canonical form of a [Parse] tree to b.
func (e encoder) write(b *bytes.Buffer, v any) error {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case string:
		writeString(b, x)
	case json.Number:
		s, err := formatNumber(x)
		if err != nil {
			return err
		}
		b.WriteString(s)
	case []any:
		b.WriteByte('[')
		for i, item := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := e.write(b, item); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case Object:
		members := x
		if e.compare != nil {
			members = slices.Clone(x)
			slices.SortStableFunc(members, func(p, q Member) int { return e.compare(p.Key, q.Key) })
		}
		b.WriteByte('{')
		for i, m := range members {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, m.Key)
			b.WriteByte(':')
			if err := e.write(b, m.Value); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	default:
		return fmt.Errorf("canon: unexpected %T in a parsed JSON tree", v)
	}
	return nil
}

// formatNumber returns the ECMAScript form of a JSON number.
func formatNumber(n json.Number) (string, error) {
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return "", fmt.Errorf("%w: %s", ErrNonFinite, n)
	}
	return jcs.NumberToJSON(f)
}

// writeString appends s as a JSON string escaped as JSON.stringify does
// (CONTRACTS §1.4). s is valid UTF-8 (it came from [Parse]).
func writeString(b *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b.WriteString(s[start:i])
		switch c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			b.WriteString(`\u00`)
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&0xF])
		}
		start = i + 1
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
}
