package canon

import (
	"encoding/json"
	"reflect"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// A walker writes the canonical JSON of a Go value directly, by walking it
// with the cached plan of its type (see plan.go), instead of encoding it
// with encoding/json and rewriting that text. It gives up (its plans
// return false) on anything a plan does not cover or that encoding/json
// would refuse, and [Marshal] then takes the general path, so that what the
// walker writes is always what that path would have written.
type walker struct {
	depth int      // containers entered
	keys  []mapKey // map members being ordered, a stack across nesting levels
}

// maxWalkDepth bounds the containers the walker enters before it leaves
// the value to the general path (which reports cycles as encoding/json
// does).
const maxWalkDepth = 512

// walkers holds walkers with their key stacks grown by earlier calls.
var walkers = sync.Pool{New: func() any { return new(walker) }}

// lastPlan caches the plan of the type marshalled last, which saves the
// lookup in plans when one type is marshalled again and again, and the
// size its output had, which sizes the next output buffer.
var lastPlan atomic.Pointer[typePlan]

type typePlan struct {
	typ   reflect.Type
	plan  planFunc
	size  atomic.Int64
	spare sync.Pool // pointers to values of a struct typ, zero between uses
}

// marshalDirect returns the canonical JSON of v written by a walker, and
// false when the walker gave up on v.
func marshalDirect(v any) ([]byte, bool) {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() {
		return []byte("null"), true
	}
	t := rv.Type()
	last := lastPlan.Load()
	if last == nil || last.typ != t {
		last = &typePlan{typ: t, plan: planOf(t)}
		lastPlan.Store(last)
	}
	w := walkers.Get().(*walker)
	w.depth = 0
	// The output is written straight into the buffer returned, sized
	// from the last output of this type: no copy at the end.
	buf := make([]byte, 0, min(max(last.size.Load(), 64), 1<<16))
	var b []byte
	var ok bool
	if rv.Kind() == reflect.Struct {
		// A struct given by value is not addressable; a copy in a spare
		// variable is, so that its fields can be read in place.
		spare := last.spare.Get()
		if spare == nil {
			spare = reflect.New(t).Interface()
		}
		c := reflect.ValueOf(spare).Elem()
		c.Set(rv)
		b, ok = last.plan(w, buf, c)
		c.SetZero()
		last.spare.Put(spare)
	} else {
		b, ok = last.plan(w, buf, rv)
	}
	if ok {
		last.size.Store(int64(len(b)) + 32)
	}
	if cap(w.keys) <= 1<<14 {
		clear(w.keys[:cap(w.keys)])
		w.keys = w.keys[:0]
		walkers.Put(w)
	}
	return b, ok
}

// enter counts one more level of nesting and reports whether the walker
// may go on.
func (w *walker) enter() bool {
	w.depth++
	return w.depth <= maxWalkDepth
}

func (w *walker) leave() { w.depth-- }

// appendLossyString appends s as a JSON string as the general path writes
// it: escaped as [appendString] escapes it, with each byte of invalid UTF-8
// as U+FFFD (encoding/json writes \ufffd, which the rewrite decodes).
func appendLossyString(b []byte, s string) []byte {
	i := 0
	for i+8 <= len(s) && plainWord(s[i:i+8]) {
		i += 8
	}
	for i < len(s) && plainByte[s[i]] {
		i++
	}
	b = append(b, '"')
	if i == len(s) {
		b = append(b, s...)
		return append(b, '"')
	}
	start := 0
	for i < len(s) {
		c := s[i]
		if plainByte[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			b = appendEscaped(b, c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, "\uFFFD"...)
			start = i + 1
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// plainWord reports whether all eight bytes of s are [plainByte]s: none
// is a control, '"', '\\' or above 0x7F. (The tests of each byte are the
// exact "has a byte less than" and "has a zero byte" word tricks.)
func plainWord(s string) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	x := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
	quote, backslash := x^(ones*'"'), x^(ones*'\\')
	special := (x - ones*0x20) | (quote-ones) & ^quote | (backslash-ones) & ^backslash
	return (x|special)&highs == 0
}

// plainByte marks the bytes that stand for themselves inside a canonical
// JSON string: ASCII other than controls, '"' and '\\'.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// validUTF8 returns s with each byte of invalid UTF-8 replaced by U+FFFD,
// as encoding/json writes it. (strings.ToValidUTF8 replaces a run of such
// bytes by one U+FFFD.)
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	b := make([]byte, 0, len(s)+8)
	for _, r := range s {
		b = utf8.AppendRune(b, r)
	}
	return string(b)
}

// appendMarshaled appends the canonical form of JSON text a MarshalJSON
// method returned, and false where encoding/json would refuse the text or
// the general path would fail on it.
func appendMarshaled(b, text []byte) ([]byte, bool) {
	if !json.Valid(text) {
		return b, false
	}
	t := transformers.Get().(*transformer)
	t.compare, t.out = CompareText, b
	err := t.transform(string(text))
	b = t.out
	t.out = nil
	t.release()
	return b, err == nil
}
