package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// ViewTree parses one message into the tree [ParseTree] returns, equal
// to it value for value and with the same verdict, but without copying
// the strings it can share: a string (or member name) that holds no
// escape and is valid UTF-8 is a view of line's bytes rather than a copy,
// so a message made of one long string costs its line and little more.
// Strings with escapes or invalid UTF-8 are decoded into new memory, as
// encoding/json decodes them (an invalid byte or lone surrogate becomes
// U+FFFD).
//
// The tree's strings share line: line must not be modified while the
// tree, or any string taken from it, is in use. A [jsonrpc.Conn] gives it
// the line its framer handed over, which nothing writes to again.
func ViewTree(line []byte) (map[string]any, error) {
	p := treeParser{b: line}
	return viewTree(&p)
}

func viewTree(p *treeParser) (map[string]any, error) {
	line := p.b
	if !json.Valid(line) {
		// The syntax error encoding/json reports (it checks the whole
		// text before it decodes any of it, so nothing is built here).
		var none struct{}
		if err := json.Unmarshal(line, &none); err != nil {
			return nil, err
		}
		return nil, errors.New("not JSON")
	}
	var v any
	if p.space(); p.b[p.i] == '{' {
		v = p.object(p.member)
	} else {
		v = p.value()
	}
	if p.err != nil {
		return nil, p.err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("not a JSON object")
	}
	return m, nil
}

// ViewTreeMembers is [ViewTree], and it also calls member with the name
// and the text (a slice of line) of each member of the line's object as
// it is parsed, in the order sent: a repeated name is reported each time.
// So a reader that needs some members as raw JSON finds them without
// scanning the line again.
func ViewTreeMembers(line []byte, member func(name string, raw []byte)) (map[string]any, error) {
	p := treeParser{b: line, member: member}
	return viewTree(&p)
}

// viewDocument parses raw, a JSON document json.Valid accepted, into the
// tree jsonschema.UnmarshalJSON returns for it: numbers are json.Number
// holding their text as sent (so no number is rounded, and none is too
// large), and strings are decoded as encoding/json decodes them. Its
// plain strings and its numbers share raw, as [ViewTree]'s strings share
// a line: raw must not change while the tree is in use.
func viewDocument(raw []byte) any {
	p := treeParser{b: raw, numbers: true}
	return p.value()
}

// A treeParser builds the tree of a text json.Valid accepted, so it
// checks no syntax: every index it reads is known to be in range. err is
// the first number that does not fit a float64, which encoding/json
// reports after decoding the rest. With numbers set, a number is a
// json.Number, a view of its text, and never an error.
// member, when set, is told each member of the top-level object.
type treeParser struct {
	b       []byte
	i       int
	err     error
	numbers bool
	member  func(name string, raw []byte)
}

// float64Type names the type a number decodes to, in errors.
var float64Type = reflect.TypeFor[float64]()

func (p *treeParser) space() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *treeParser) value() any {
	p.space()
	switch p.b[p.i] {
	case '{':
		return p.object(nil)
	case '[':
		return p.array()
	case '"':
		return p.str()
	case 't':
		p.i += len("true")
		return true
	case 'f':
		p.i += len("false")
		return false
	case 'n':
		p.i += len("null")
		return nil
	}
	return p.number()
}

// object parses the object at p.i and tells member, if set, the text of
// each of its members.
func (p *treeParser) object(member func(name string, raw []byte)) map[string]any {
	m := map[string]any{}
	p.i++ // {
	p.space()
	if p.b[p.i] == '}' {
		p.i++
		return m
	}
	for {
		p.space()
		k := p.str()
		p.space()
		p.i++ // :
		p.space()
		start := p.i
		m[k] = p.value() // a repeated name keeps its last value, as encoding/json does
		if member != nil {
			member(k, p.b[start:p.i:p.i])
		}
		p.space()
		c := p.b[p.i]
		p.i++ // , or }
		if c == '}' {
			return m
		}
	}
}

func (p *treeParser) array() []any {
	a := []any{}
	p.i++ // [
	p.space()
	if p.b[p.i] == ']' {
		p.i++
		return a
	}
	for {
		a = append(a, p.value())
		p.space()
		c := p.b[p.i]
		p.i++ // , or ]
		if c == ']' {
			return a
		}
	}
}

// number decodes a number as encoding/json decodes one into an any: a
// float64, and an error (kept, and the number taken as 0) when it does
// not fit one; or, with p.numbers set, as a decoder that UseNumber was
// called on does: a json.Number.
func (p *treeParser) number() any {
	start := p.i
	for p.i < len(p.b) {
		switch c := p.b[p.i]; {
		case '0' <= c && c <= '9', c == '-', c == '+', c == '.', c == 'e', c == 'E':
			p.i++
			continue
		}
		break
	}
	text := p.b[start:p.i]
	if p.numbers {
		return json.Number(unsafe.String(unsafe.SliceData(text), len(text)))
	}
	f, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(text), len(text)), 64)
	if err != nil {
		if p.err == nil {
			p.err = &json.UnmarshalTypeError{Value: "number " + string(text), Type: float64Type, Offset: int64(p.i)}
		}
		return float64(0)
	}
	return f
}

// str decodes the string whose opening quote is at p.i. A string without
// escapes whose bytes are valid UTF-8 is returned as a view of p.b.
func (p *treeParser) str() string {
	body := p.i + 1
	q := bytes.IndexByte(p.b[body:], '"')
	span := p.b[body : body+q]
	if bytes.IndexByte(span, '\\') < 0 {
		p.i = body + q + 1
		if len(span) == 0 {
			return ""
		}
		if utf8.Valid(span) {
			return unsafe.String(unsafe.SliceData(span), len(span))
		}
		return decodeString(span)
	}
	end := stringEnd(p.b, body)
	p.i = end + 1
	return decodeString(p.b[body:end])
}

// stringEnd returns the index of the quote closing the string whose text
// starts at body: the first quote not escaped by an odd run of
// backslashes.
func stringEnd(b []byte, body int) int {
	from := body
	for {
		q := from + bytes.IndexByte(b[from:], '"')
		n := 0
		for j := q - 1; j >= body && b[j] == '\\'; j-- {
			n++
		}
		if n%2 == 0 {
			return q
		}
		from = q + 1
	}
}

// decodeString decodes the text between a string's quotes into new
// memory, with encoding/json's rules: escapes are decoded, a \u escape of
// a surrogate pair is one rune, and a lone surrogate or a byte that is
// not valid UTF-8 becomes U+FFFD.
func decodeString(s []byte) string {
	b := make([]byte, 0, len(s))
	for r := 0; r < len(s); {
		plain := r
		for r < len(s) && s[r] != '\\' && s[r] < utf8.RuneSelf {
			r++
		}
		b = append(b, s[plain:r]...)
		if r == len(s) {
			break
		}
		if c := s[r]; c != '\\' {
			rr, size := utf8.DecodeRune(s[r:])
			b = utf8.AppendRune(b, rr)
			r += size
			continue
		}
		switch c := s[r+1]; c {
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			rr := hex4(s[r+2:])
			r += 6
			if utf16.IsSurrogate(rr) {
				if r+1 < len(s) && s[r] == '\\' && s[r+1] == 'u' {
					if dec := utf16.DecodeRune(rr, hex4(s[r+2:])); dec != unicode.ReplacementChar {
						b = utf8.AppendRune(b, dec)
						r += 6
						continue
					}
				}
				rr = unicode.ReplacementChar
			}
			b = utf8.AppendRune(b, rr)
			continue
		default: // " \ /
			b = append(b, c)
		}
		r += 2
	}
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// hex4 decodes the four hex digits at the start of s, which json.Valid
// has checked are there.
func hex4(s []byte) rune {
	var r rune
	for _, c := range s[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		default:
			c = c - 'A' + 10
		}
		r = r<<4 | rune(c)
	}
	return r
}
