package schema

import (
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"
)

// maxDecodedDepth bounds how deep [Decoded] walks; a deeper value (or a
// map that holds itself) is left to the encoder, which reports a cycle.
const maxDecodedDepth = 1000

// Decoded returns v in the form the validator is given after v is encoded
// as JSON and decoded again (nil, bool, string, json.Number, []any,
// map[string]any), without encoding it. It walks nil, bool, string,
// float64, Go integers, map[string]any, []any and []string; ok is false
// when v holds anything else, a string or key that is not valid UTF-8 (the
// encoder replaces its bytes), a NaN or an infinity (the encoder fails) or
// nesting deeper than 1,000 levels: the caller then encodes v, which gives
// the same answer, or the encoder's error, the slow way. A map or slice of
// v already in that form is returned as it is, not copied, so v must not
// be modified while the result is in use.
func Decoded(v any) (out any, ok bool) {
	out, _, ok = decoded(v, 0)
	return out, ok
}

// decoded returns v's decoded form, whether that differs from v (a
// container is copied only when something under it changes), and ok.
func decoded(v any, depth int) (out any, changed, ok bool) {
	if depth > maxDecodedDepth {
		return nil, false, false
	}
	switch x := v.(type) {
	case nil:
		return nil, false, true
	case bool:
		return x, false, true
	case string:
		return x, false, utf8.ValidString(x)
	case float64:
		n, ok := floatNumber(x)
		return n, true, ok
	case int:
		return json.Number(strconv.Itoa(x)), true, true
	case int64:
		return json.Number(strconv.FormatInt(x, 10)), true, true
	case int32:
		return json.Number(strconv.FormatInt(int64(x), 10)), true, true
	case uint64:
		return json.Number(strconv.FormatUint(x, 10)), true, true
	case map[string]any:
		return decodedMap(x, depth)
	case []any:
		return decodedSlice(x, depth)
	case []string:
		out, ok := Strings(x)
		return out, true, ok
	}
	return nil, false, false
}

func decodedMap(x map[string]any, depth int) (any, bool, bool) {
	if x == nil {
		return nil, true, true
	}
	var out map[string]any // allocated at the first member that changes
	for k, e := range x {
		if !utf8.ValidString(k) {
			return nil, false, false
		}
		d, changed, ok := decoded(e, depth+1)
		if !ok {
			return nil, false, false
		}
		if changed && out == nil {
			out = make(map[string]any, len(x))
		}
		if out != nil {
			out[k] = d
		}
	}
	if out == nil {
		return x, false, true
	}
	// Members met before the first change are copied as they are.
	for k, e := range x {
		if _, done := out[k]; !done {
			out[k] = e
		}
	}
	return out, true, true
}

func decodedSlice(x []any, depth int) (any, bool, bool) {
	if x == nil {
		return nil, true, true
	}
	var out []any // allocated at the first item that changes
	for i, e := range x {
		d, changed, ok := decoded(e, depth+1)
		if !ok {
			return nil, false, false
		}
		if changed && out == nil {
			out = make([]any, len(x))
			copy(out, x[:i])
		}
		if out != nil {
			out[i] = d
		}
	}
	if out == nil {
		return x, false, true
	}
	return out, true, true
}

// Takes reports whether [Decoded] takes v, without building v's form: for
// a caller whose schema judges v by its JSON type alone, v itself then
// stands for its form.
func Takes(v any) bool {
	return takes(v, 0)
}

func takes(v any, depth int) bool {
	if depth > maxDecodedDepth {
		return false
	}
	switch x := v.(type) {
	case nil, bool, int, int64, int32, uint64:
		return true
	case string:
		return utf8.ValidString(x)
	case float64:
		return !math.IsInf(x, 0) && !math.IsNaN(x)
	case map[string]any:
		for k, e := range x {
			if !utf8.ValidString(k) || !takes(e, depth+1) {
				return false
			}
		}
		return true
	case []any:
		for _, e := range x {
			if !takes(e, depth+1) {
				return false
			}
		}
		return true
	case []string:
		for _, e := range x {
			if !utf8.ValidString(e) {
				return false
			}
		}
		return true
	}
	return false
}

// Strings is [Decoded] for a []string: nil stays nil (JSON null).
func Strings(ss []string) (any, bool) {
	if ss == nil {
		return nil, true
	}
	out := make([]any, len(ss))
	for i, s := range ss {
		if !utf8.ValidString(s) {
			return nil, false
		}
		out[i] = s
	}
	return out, true
}

// floatNumber writes f as encoding/json does (the shortest text that reads
// back as f, in exponent form below 1e-6 and from 1e21 on, with a
// one-digit negative exponent written without its leading zero).
func floatNumber(f float64) (any, bool) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, false
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b := strconv.AppendFloat(make([]byte, 0, 24), f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return json.Number(b), true
}

// ValidateDecoded checks inst, a value in the form [Decoded] returns or
// decoding JSON text gives, against the compiled schema: the result of
// ValidateJSON for the text inst was decoded from.
func (c *Compiled) ValidateDecoded(inst any) error {
	return result(c.sch.Validate(inst))
}
