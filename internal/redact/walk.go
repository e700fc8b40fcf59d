package redact

import (
	"bytes"
	"encoding/json"
	"reflect"
)

// JSON returns the JSON text b with every string literal in it, keys
// included, redacted by [Redactor.String]: the layout, the other tokens
// and the literals without secrets stay byte for byte. A literal is
// matched decoded, so a secret written with escapes is found too. b is
// returned as it is when nothing changed; text that is not JSON is
// redacted as far as its quoted strings go.
func (r *Redactor) JSON(b []byte) []byte {
	var out []byte
	last := 0
	for i := 0; i < len(b); i++ {
		if b[i] != '"' {
			continue
		}
		j, escaped := i+1, false
		for j < len(b) && b[j] != '"' {
			if b[j] == '\\' {
				escaped = true
				j++
			}
			j++
		}
		if j >= len(b) {
			break // an unterminated string: not JSON
		}
		lit := b[i : j+1]
		var s string
		if escaped {
			if json.Unmarshal(lit, &s) != nil {
				i = j
				continue
			}
		} else {
			s = string(lit[1 : len(lit)-1])
		}
		if red := r.String(s); red != s {
			out = append(out, b[last:i]...)
			out = append(out, quote(red)...)
			last = j + 1
		}
		i = j
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

// quote is s as a JSON string, with <, > and & as they are.
func quote(s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

var rawMessage = reflect.TypeOf(json.RawMessage(nil))

// Walk redacts, in place, every string reachable from v, which must be a
// pointer (anything else is left alone): the strings of structs' exported
// fields, of slices, arrays, maps (keys included) and interfaces, through
// pointers, and the JSON text of json.RawMessage values ([Redactor.JSON]).
// Values shared with other data are changed there too.
func (r *Redactor) Walk(v any) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return
	}
	r.walk(rv.Elem(), 0)
}

// maxDepth bounds the walk, so that a cycle of pointers ends it.
const maxDepth = 64

// walk redacts the strings of the settable value v.
func (r *Redactor) walk(v reflect.Value, depth int) {
	if depth > maxDepth {
		return
	}
	switch v.Kind() {
	case reflect.String:
		if s := v.String(); v.CanSet() {
			if red := r.String(s); red != s {
				v.SetString(red)
			}
		}
	case reflect.Pointer:
		if !v.IsNil() {
			r.walk(v.Elem(), depth+1)
		}
	case reflect.Interface:
		if v.IsNil() || !v.CanSet() {
			return
		}
		e := v.Elem()
		c := reflect.New(e.Type()).Elem()
		c.Set(e)
		r.walk(c, depth+1)
		v.Set(c)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if f := v.Field(i); f.CanSet() {
				r.walk(f, depth+1)
			}
		}
	case reflect.Slice:
		if v.Type() == rawMessage {
			if b := v.Bytes(); len(b) > 0 && v.CanSet() {
				v.SetBytes(r.JSON(b))
			}
			return
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return // bytes are not text
		}
		for i := 0; i < v.Len(); i++ {
			r.walk(v.Index(i), depth+1)
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			r.walk(v.Index(i), depth+1)
		}
	case reflect.Map:
		if v.IsNil() {
			return
		}
		keys := v.MapKeys()
		for _, k := range keys {
			val := reflect.New(v.Type().Elem()).Elem()
			val.Set(v.MapIndex(k))
			r.walk(val, depth+1)
			nk := reflect.New(k.Type()).Elem()
			nk.Set(k)
			r.walk(nk, depth+1)
			if !nk.Equal(k) {
				v.SetMapIndex(k, reflect.Value{})
			}
			v.SetMapIndex(nk, val)
		}
	}
}
