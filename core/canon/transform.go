package canon

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// transformer rewrites compact JSON text (encoding/json's output, so
// syntactically valid) into its canonical form in one pass, without
// building a tree: strings and numbers are rewritten in place, and the
// members of an object are reordered only when they are not already in
// order, by moving the output spans their values were written to.
type transformer struct {
	src     string   // the JSON text
	pos     int      // next byte of src
	out     []byte   // canonical output
	members []member // object members being ordered, a stack across nesting levels
	keys    []string // keys that had escapes, decoded
	scratch []byte   // spans copied while an object is reordered
	compare func(a, b string) int
	numErr  error // the first number error; reported after structural errors, as Parse ran before write
}

// member is one object member: where its decoded key is and the output
// span of `"key":value`. It holds no pointers, so that the stack of members
// costs no write barriers: the key is src[key:keyEnd], or t.keys[-key-1]
// when it had to be unescaped.
type member struct {
	key, keyEnd int
	start, end  int
}

// keyOf returns the decoded key of m.
func (t *transformer) keyOf(m member) string {
	if m.key < 0 {
		return t.keys[-m.key-1]
	}
	return t.src[m.key:m.keyEnd]
}

// errSyntax reports JSON text this transformer does not accept. encoding/json
// validates what it writes, so this means a bug, not bad input.
var errSyntax = errors.New("canon: unexpected JSON text from encoding/json")

// transform appends the canonical form of the JSON text src to out.
func (t *transformer) transform(src string) error {
	if !utf8.ValidString(src) {
		return errors.New("canon: JSON text is not valid UTF-8")
	}
	t.src, t.pos = src, 0
	if err := t.value(); err != nil {
		return err
	}
	t.skipSpace()
	if t.pos != len(t.src) {
		return errors.New("canon: unexpected data after the JSON value")
	}
	return t.numErr
}

func (t *transformer) skipSpace() {
	for t.pos < len(t.src) {
		switch t.src[t.pos] {
		case ' ', '\t', '\n', '\r':
			t.pos++
		default:
			return
		}
	}
}

// value writes the canonical form of the value at pos.
func (t *transformer) value() error {
	t.skipSpace()
	if t.pos >= len(t.src) {
		return errSyntax
	}
	switch c := t.src[t.pos]; {
	case c == '{':
		return t.object()
	case c == '[':
		return t.array()
	case c == '"':
		return t.str()
	case c == 't':
		return t.literal("true")
	case c == 'f':
		return t.literal("false")
	case c == 'n':
		return t.literal("null")
	case c == '-' || (c >= '0' && c <= '9'):
		t.number()
		return nil
	}
	return errSyntax
}

func (t *transformer) literal(lit string) error {
	if !strings.HasPrefix(t.src[t.pos:], lit) {
		return errSyntax
	}
	t.out = append(t.out, lit...)
	t.pos += len(lit)
	return nil
}

// open copies the opening bracket at t.pos and reports whether closing
// follows it (after white space), which it then copies too: an empty
// array or object.
func (t *transformer) open(opening, closing byte) (empty bool) {
	t.pos++
	t.out = append(t.out, opening)
	t.skipSpace()
	if t.pos < len(t.src) && t.src[t.pos] == closing {
		t.pos++
		t.out = append(t.out, closing)
		return true
	}
	return false
}

func (t *transformer) array() error {
	if t.open('[', ']') {
		return nil
	}
	for {
		if err := t.value(); err != nil {
			return err
		}
		t.skipSpace()
		if t.pos >= len(t.src) {
			return errSyntax
		}
		switch t.src[t.pos] {
		case ',':
			t.pos++
			t.out = append(t.out, ',')
		case ']':
			t.pos++
			t.out = append(t.out, ']')
			return nil
		default:
			return errSyntax
		}
	}
}

func (t *transformer) object() error {
	if t.open('{', '}') {
		return nil
	}
	base := len(t.members)
	inOrder := true
	var seen keySet
	for {
		t.skipSpace()
		if t.pos >= len(t.src) || t.src[t.pos] != '"' {
			return errSyntax
		}
		start := len(t.out)
		k, kEnd, err := t.key()
		if err != nil {
			return err
		}
		m := member{key: k, keyEnd: kEnd, start: start}
		if n := len(t.members); n > base && (!inOrder || !t.follows(t.keyOf(t.members[n-1]), t.keyOf(m))) {
			inOrder = false
			if seen.has(t, t.members[base:], t.keyOf(m)) {
				return fmt.Errorf("canon: duplicate object key %q", t.keyOf(m))
			}
		}
		t.skipSpace()
		if t.pos >= len(t.src) || t.src[t.pos] != ':' {
			return errSyntax
		}
		t.pos++
		t.out = append(t.out, ':')
		if err := t.value(); err != nil {
			return err
		}
		m.end = len(t.out)
		t.members = append(t.members, m)
		t.skipSpace()
		if t.pos >= len(t.src) {
			return errSyntax
		}
		if t.src[t.pos] == ',' {
			t.pos++
			t.out = append(t.out, ',')
			continue
		}
		if t.src[t.pos] != '}' {
			return errSyntax
		}
		t.pos++
		break
	}
	if !inOrder && t.compare != nil {
		t.reorder(t.members[base:])
	}
	t.members = t.members[:base]
	t.out = append(t.out, '}')
	return nil
}

// follows reports whether key sorts strictly after prev, which makes it
// neither out of order nor a duplicate of an earlier key.
func (t *transformer) follows(prev, key string) bool {
	if t.compare == nil {
		return false
	}
	return t.compare(prev, key) < 0
}

// keySet finds duplicate keys among an object's members once they are out
// of order: by a scan while the object is small, by a map once it is not.
type keySet map[string]struct{}

// has reports whether key is the key of one of ms (the members before it)
// and adds it.
func (s *keySet) has(t *transformer, ms []member, key string) bool {
	if *s == nil && len(ms) < 32 {
		for _, m := range ms {
			if t.keyOf(m) == key {
				return true
			}
		}
		return false
	}
	if *s == nil {
		*s = make(keySet, 2*len(ms))
		for _, m := range ms {
			(*s)[t.keyOf(m)] = struct{}{}
		}
	}
	if _, ok := (*s)[key]; ok {
		return true
	}
	(*s)[key] = struct{}{}
	return false
}

// reorder rewrites the output spans of ms (written in document order,
// separated by commas) in key order.
func (t *transformer) reorder(ms []member) {
	first, last := ms[0].start, ms[len(ms)-1].end
	t.scratch = append(t.scratch[:0], t.out[first:last]...)
	slices.SortFunc(ms, func(a, b member) int { return t.compare(t.keyOf(a), t.keyOf(b)) })
	t.out = t.out[:first]
	for i, m := range ms {
		if i > 0 {
			t.out = append(t.out, ',')
		}
		t.out = append(t.out, t.scratch[m.start-first:m.end-first]...)
	}
}

// key writes the object key at pos and returns where its decoded form is
// (see [member]).
func (t *transformer) key() (int, int, error) {
	begin := t.pos + 1
	escaped, err := t.quoted()
	if err != nil {
		return 0, 0, err
	}
	end := t.pos - 1
	if !escaped {
		return begin, end, nil
	}
	t.keys = append(t.keys, unquote(t.src[begin:end]))
	return -len(t.keys), 0, nil
}

// str writes the JSON string at pos escaped as JSON.stringify escapes it.
func (t *transformer) str() error {
	_, err := t.quoted()
	return err
}

// quoted writes the JSON string at pos escaped as JSON.stringify escapes
// it, and reports whether its text had escapes. Without a backslash the
// text is already canonical (JSON text cannot hold raw controls, quotes or
// backslashes); otherwise each escape is decoded as encoding/json decodes
// it and written again.
func (t *transformer) quoted() (bool, error) {
	i := t.pos + 1
	for i < len(t.src) && t.src[i] != '"' && t.src[i] != '\\' {
		i++
	}
	if i >= len(t.src) {
		return false, errSyntax
	}
	if t.src[i] == '"' {
		t.out = append(t.out, t.src[t.pos:i+1]...)
		t.pos = i + 1
		return false, nil
	}
	end := stringEnd(t.src, i)
	if end < 0 {
		return true, errSyntax
	}
	t.out = appendUnquoted(t.out, t.src[t.pos+1:end])
	t.pos = end + 1
	return true, nil
}

// appendUnquoted appends the JSON string whose body (between the quotes)
// is s, decoded as encoding/json decodes it and escaped again as
// [appendString] escapes it, without building the decoded string.
func appendUnquoted(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		j := strings.IndexByte(s[i:], '\\')
		if j < 0 {
			b = append(b, s[i:]...)
			break
		}
		b = append(b, s[i:i+j]...)
		i += j
		var r rune
		r, i = unescape(s, i)
		b = appendRune(b, r)
	}
	return append(b, '"')
}

// unescape decodes the escape at s[i] (a backslash), returning the rune
// and the index after the escape: an escaped lone surrogate is U+FFFD, as
// encoding/json decodes it.
func unescape(s string, i int) (rune, int) {
	if i+1 >= len(s) {
		return '\\', i + 1
	}
	switch e := s[i+1]; e {
	case 'b':
		return '\b', i + 2
	case 'f':
		return '\f', i + 2
	case 'n':
		return '\n', i + 2
	case 'r':
		return '\r', i + 2
	case 't':
		return '\t', i + 2
	case 'u':
		r := hex4(s[i+2:])
		i += 6
		if !utf16.IsSurrogate(r) {
			return r, i
		}
		if i+1 < len(s) && s[i] == '\\' && s[i+1] == 'u' {
			if dec := utf16.DecodeRune(r, hex4(s[i+2:])); dec != utf8.RuneError {
				return dec, i + 6
			}
		}
		return utf8.RuneError, i
	default: // '"', '\\', '/'
		return rune(e), i + 2
	}
}

// appendRune appends r as it stands inside a canonical JSON string.
func appendRune(b []byte, r rune) []byte {
	if r >= 0x20 && r != '"' && r != '\\' {
		return utf8.AppendRune(b, r)
	}
	return appendEscaped(b, byte(r))
}

// stringEnd returns the index of the closing quote of the string whose
// body contains i, or -1.
func stringEnd(s string, i int) int {
	for i < len(s) {
		switch s[i] {
		case '\\':
			i += 2
		case '"':
			return i
		default:
			i++
		}
	}
	return -1
}

// unquote decodes the body of a JSON string as encoding/json does: an
// escaped lone surrogate becomes U+FFFD.
func unquote(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			b = append(b, s[i])
			i++
			continue
		}
		var r rune
		r, i = unescape(s, i)
		b = utf8.AppendRune(b, r)
	}
	return string(b)
}

// hex4 returns the value of four hex digits at the start of s, or -1.
func hex4(s string) rune {
	if len(s) < 4 {
		return -1
	}
	var r rune
	for _, c := range []byte(s[:4]) {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// number writes the ECMAScript form of the number at pos.
func (t *transformer) number() {
	i := t.pos
	for i < len(t.src) && isNumberByte(t.src[i]) {
		i++
	}
	text := t.src[t.pos:i]
	t.pos = i
	var ok bool
	if t.out, ok = appendNumberText(t.out, text); !ok {
		t.noteNumberError(text)
	}
}

// appendNumberText appends the ECMAScript form of the JSON number text and
// reports false, appending nothing, when it is not a finite float64. An
// integer of at most 15 digits is exact in a float64 and already in that
// form (except -0); anything else goes through strconv.ParseFloat and
// [appendNumber].
func appendNumberText(b []byte, text string) ([]byte, bool) {
	digits := 0
	if text != "" && text[0] == '-' {
		digits = 1
	}
	i := digits
	for i < len(text) && text[i] >= '0' && text[i] <= '9' {
		i++
	}
	if i == len(text) && i-digits <= 15 && text != "-0" {
		return append(b, text...), true
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return b, false
	}
	return appendNumber(b, f), true
}

// appendNumber appends the ECMAScript (JSON.stringify) form of the finite
// number f, as jcs.NumberToJSON writes it: shortest round trip, fixed
// notation from 1e-6 up to 1e21, else an exponent without leading zeros,
// and 0 for -0.
func appendNumber(b []byte, f float64) []byte {
	if f == 0 {
		return append(b, '0')
	}
	if f < 0 {
		b = append(b, '-')
		f = -f
	}
	if f >= 1e-6 && f < 1e21 {
		return strconv.AppendFloat(b, f, 'f', -1, 64)
	}
	start := len(b)
	b = strconv.AppendFloat(b, f, 'e', -1, 64)
	// Go writes at least two exponent digits ("1e+09"); ECMAScript does not.
	if e := bytes.IndexByte(b[start:], 'e'); e > 0 && b[start+e+2] == '0' {
		b = append(b[:start+e+2], b[start+e+3:]...)
	}
	return b
}

// isNumberByte reports whether c can appear in a JSON number.
func isNumberByte(c byte) bool {
	return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'
}

func (t *transformer) noteNumberError(text string) {
	if t.numErr == nil {
		t.numErr = fmt.Errorf("%w: %s", ErrNonFinite, text)
	}
}

// appendString appends s as a JSON string escaped as JSON.stringify does
// (CONTRACTS §1.4). s is valid UTF-8.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' {
			b = append(b, s[start:i]...)
			b = appendEscaped(b, c)
			start = i + 1
		}
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendEscaped appends the escape of c, a quote, a backslash or a control
// character: the short form where JSON has one, else \u00xx in lowercase.
func appendEscaped(b []byte, c byte) []byte {
	const hex = "0123456789abcdef"
	switch c {
	case '"':
		return append(b, `\"`...)
	case '\\':
		return append(b, `\\`...)
	case '\b':
		return append(b, `\b`...)
	case '\f':
		return append(b, `\f`...)
	case '\n':
		return append(b, `\n`...)
	case '\r':
		return append(b, `\r`...)
	case '\t':
		return append(b, `\t`...)
	}
	return append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
}
