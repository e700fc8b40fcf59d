package canon

import (
	"encoding"
	"encoding/base64"
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strconv"
	"sync"
)

// A planFunc writes the canonical JSON of v, whose type is the type the
// plan was made for, and reports false where the walker gives up.
type planFunc func(w *walker, b []byte, v reflect.Value) ([]byte, bool)

var (
	plans             sync.Map // reflect.Type → planFunc
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
	isZeroerType      = reflect.TypeFor[interface{ IsZero() bool }]()
	numberType        = reflect.TypeFor[json.Number]()
)

// planOf returns the cached plan of t, making it on first use. A recursive
// type finds its own plan while it is being made through an indirection.
func planOf(t reflect.Type) planFunc {
	if p, ok := plans.Load(t); ok {
		return p.(planFunc)
	}
	made := sync.OnceValue(func() planFunc { return newPlan(t) })
	p, loaded := plans.LoadOrStore(t, planFunc(func(w *walker, b []byte, v reflect.Value) ([]byte, bool) { return made()(w, b, v) }))
	if loaded {
		return p.(planFunc)
	}
	f := made()
	plans.Store(t, f)
	return f
}

// newPlan makes the plan of t, following encoding/json's choice of encoder
// (Marshaler, then TextMarshaler, then by kind). Types encoding/json encodes
// differently depending on whether the value is addressable (a Marshaler
// or TextMarshaler method on the pointer only), json's "string" option,
// map keys that are TextMarshalers and the kinds encoding/json refuses get
// [giveUp].
func newPlan(t reflect.Type) planFunc {
	switch {
	case t.Implements(marshalerType):
		return planMarshaler
	case t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(marshalerType):
		return giveUp
	case t.Implements(textMarshalerType):
		return planTextMarshaler
	case t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(textMarshalerType):
		return giveUp
	}
	switch t.Kind() {
	case reflect.Bool:
		return planBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return planInt
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return planUint
	case reflect.Float32:
		return planFloat32
	case reflect.Float64:
		return planFloat64
	case reflect.String:
		if t == numberType {
			return planNumber
		}
		return planString
	case reflect.Interface:
		return planInterface
	case reflect.Struct:
		return newStructPlan(t)
	case reflect.Map:
		return newMapPlan(t)
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			p := reflect.PointerTo(t.Elem())
			if !p.Implements(marshalerType) && !p.Implements(textMarshalerType) {
				return planBytes
			}
		}
		return newSlicePlan(t)
	case reflect.Array:
		return newArrayPlan(t)
	case reflect.Pointer:
		return newPointerPlan(t)
	}
	return giveUp
}

func giveUp(_ *walker, b []byte, _ reflect.Value) ([]byte, bool) { return b, false }

func appendNull(b []byte) ([]byte, bool) { return append(b, "null"...), true }

func planMarshaler(w *walker, b []byte, v reflect.Value) ([]byte, bool) {
	if v.Kind() == reflect.Pointer && v.IsNil() {
		return appendNull(b)
	}
	m, ok := v.Interface().(json.Marshaler)
	if !ok { // a nil interface
		return appendNull(b)
	}
	text, err := m.MarshalJSON()
	if err != nil {
		return b, false
	}
	return appendMarshaled(b, text)
}

func planTextMarshaler(w *walker, b []byte, v reflect.Value) ([]byte, bool) {
	if v.Kind() == reflect.Pointer && v.IsNil() {
		return appendNull(b)
	}
	m, ok := v.Interface().(encoding.TextMarshaler)
	if !ok { // a nil interface
		return appendNull(b)
	}
	text, err := m.MarshalText()
	if err != nil {
		return b, false
	}
	return appendLossyString(b, string(text)), true
}

func planBool(_ *walker, b []byte, v reflect.Value) ([]byte, bool) {
	return appendBool(b, v.Bool()), true
}

func appendBool(b []byte, x bool) []byte {
	if x {
		return append(b, "true"...)
	}
	return append(b, "false"...)
}

func planInt(_ *walker, b []byte, v reflect.Value) ([]byte, bool) {
	return appendInt(b, v.Int())
}

// appendInt appends n as the rewrite turns encoding/json's decimal: as it
// is up to 15 digits, else as the float64 nearest to it.
func appendInt(b []byte, n int64) ([]byte, bool) {
	if n > -1e15 && n < 1e15 {
		return strconv.AppendInt(b, n, 10), true
	}
	return appendNumberText(b, strconv.FormatInt(n, 10))
}

func planUint(_ *walker, b []byte, v reflect.Value) ([]byte, bool) {
	if n := v.Uint(); n < 1e15 {
		return strconv.AppendUint(b, n, 10), true
	}
	return appendNumberText(b, strconv.FormatUint(v.Uint(), 10))
}

func planFloat64(_ *walker, b []byte, v reflect.Value) ([]byte, bool) {
	return appendFloat(b, v.Float())
}

// appendFloat appends the ECMAScript form of f, and false for NaN and the
// infinities, which encoding/json refuses.
func appendFloat(b []byte, f float64) ([]byte, bool) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return b, false
	}
	return appendNumber(b, f), true
}

// planFloat32 writes the float64 nearest to the shortest decimal that
// round-trips the float32, which is what the rewrite reads back from
// encoding/json's text.
func planFloat32(_ *walker, b []byte, v reflect.Value) ([]byte, bool) {
	f := v.Float()
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return b, false
	}
	var text [32]byte
	return appendNumberText(b, string(strconv.AppendFloat(text[:0], f, 'g', -1, 32)))
}

func planNumber(_ *walker, b []byte, v reflect.Value) ([]byte, bool) {
	s := v.String()
	if s == "" {
		s = "0"
	}
	if !isValidNumber(s) {
		return b, false
	}
	return appendNumberText(b, s)
}

func planString(_ *walker, b []byte, v reflect.Value) ([]byte, bool) {
	return appendLossyString(b, v.String()), true
}

func planBytes(_ *walker, b []byte, v reflect.Value) ([]byte, bool) {
	if v.IsNil() {
		return appendNull(b)
	}
	b = append(b, '"')
	b = base64.StdEncoding.AppendEncode(b, v.Bytes())
	return append(b, '"'), true
}

// planInterface writes the value inside v with the plan of its dynamic
// type. The value is not addressable, as in encoding/json.
func planInterface(w *walker, b []byte, v reflect.Value) ([]byte, bool) {
	if v.IsNil() {
		return appendNull(b)
	}
	switch x := v.Interface().(type) {
	case string:
		return appendLossyString(b, x), true
	case float64:
		return appendFloat(b, x)
	case bool:
		return appendBool(b, x), true
	}
	if !w.enter() {
		return b, false
	}
	e := v.Elem()
	b, ok := planOf(e.Type())(w, b, e)
	w.leave()
	return b, ok
}

func newPointerPlan(t reflect.Type) planFunc {
	elem := planOf(t.Elem())
	return func(w *walker, b []byte, v reflect.Value) ([]byte, bool) {
		if v.IsNil() {
			return appendNull(b)
		}
		if !w.enter() {
			return b, false
		}
		b, ok := elem(w, b, v.Elem())
		w.leave()
		return b, ok
	}
}

func newSlicePlan(t reflect.Type) planFunc {
	array := newArrayPlan(t)
	return func(w *walker, b []byte, v reflect.Value) ([]byte, bool) {
		if v.IsNil() {
			return appendNull(b)
		}
		return array(w, b, v)
	}
}

func newArrayPlan(t reflect.Type) planFunc {
	elem := planOf(t.Elem())
	if t.Elem().Kind() == reflect.String && isPlainString(t.Elem()) {
		return func(w *walker, b []byte, v reflect.Value) ([]byte, bool) {
			b = append(b, '[')
			for i, n := 0, v.Len(); i < n; i++ {
				if i > 0 {
					b = append(b, ',')
				}
				b = appendLossyString(b, v.Index(i).String())
			}
			return append(b, ']'), true
		}
	}
	return func(w *walker, b []byte, v reflect.Value) ([]byte, bool) {
		if !w.enter() {
			return b, false
		}
		b = append(b, '[')
		for i, n := 0, v.Len(); i < n; i++ {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = elem(w, b, v.Index(i)); !ok {
				return b, false
			}
		}
		w.leave()
		return append(b, ']'), true
	}
}

// isPlainString reports whether encoding/json writes values of t as JSON
// strings of their text (a string kind, not json.Number, no Marshaler or
// TextMarshaler methods).
func isPlainString(t reflect.Type) bool {
	return t.Kind() == reflect.String && t != numberType && !hasMarshaler(t)
}

// isValidNumber reports whether s is a JSON number, as encoding/json
// checks a json.Number before it writes it.
func isValidNumber(s string) bool {
	if s == "" {
		return false
	}
	if s[0] == '-' {
		s = s[1:]
		if s == "" {
			return false
		}
	}
	switch {
	case s[0] == '0':
		s = s[1:]
	case '1' <= s[0] && s[0] <= '9':
		s = s[1:]
		for len(s) > 0 && isDigit(s[0]) {
			s = s[1:]
		}
	default:
		return false
	}
	if len(s) >= 2 && s[0] == '.' && isDigit(s[1]) {
		s = s[2:]
		for len(s) > 0 && isDigit(s[0]) {
			s = s[1:]
		}
	}
	if len(s) >= 2 && (s[0] == 'e' || s[0] == 'E') {
		s = s[1:]
		if s[0] == '+' || s[0] == '-' {
			s = s[1:]
			if s == "" {
				return false
			}
		}
		for len(s) > 0 && isDigit(s[0]) {
			s = s[1:]
		}
	}
	return s == ""
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// sortedNames returns the names of fields in canonical member order.
func sortedNames(names []string) []int {
	order := make([]int, len(names))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return CompareText(names[a], names[b]) })
	return order
}
