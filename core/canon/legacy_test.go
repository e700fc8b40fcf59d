package canon

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/gowebpki/jcs"
)

// legacyMarshal is the encoder Marshal replaced, kept as the reference of
// the differential property: encoding/json, then [Parse] into a tree, then
// the tree written with its object members sorted by [CompareText].
func legacyMarshal(v any) ([]byte, error) {
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
	if err := legacyWrite(&b, tree); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func legacyWrite(b *bytes.Buffer, v any) error {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case string:
		writeString(b, x)
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return fmt.Errorf("%w: %s", ErrNonFinite, x)
		}
		s, err := jcs.NumberToJSON(f)
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
			if err := legacyWrite(b, item); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case Object:
		members := append(Object(nil), x...)
		sortMembers(members)
		b.WriteByte('{')
		for i, m := range members {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, m.Key)
			b.WriteByte(':')
			if err := legacyWrite(b, m.Value); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	default:
		return fmt.Errorf("canon: unexpected %T in a parsed JSON tree", v)
	}
	return nil
}

// sortMembers is an insertion sort by CompareText, stable as the legacy
// encoder's sort was.
func sortMembers(ms Object) {
	for i := 1; i < len(ms); i++ {
		for j := i; j > 0 && CompareText(ms[j-1].Key, ms[j].Key) > 0; j-- {
			ms[j-1], ms[j] = ms[j], ms[j-1]
		}
	}
}
