package canon

import (
	"encoding/json"
	"fmt"
)

// treeBuilder builds the tree of a JSON text that json.Valid has accepted,
// so that it needs no syntax checks: it only skips whitespace, decodes
// strings as encoding/json does and looks for duplicate keys. Strings and
// numbers share the memory of src, which Parse copied from its input.
type treeBuilder struct {
	src string
	pos int
}

// buildTree returns the tree of the valid JSON text src, or the error
// [parseDecoding] returns for it: the first duplicate key in document
// order.
func buildTree(src string) (any, error) {
	b := treeBuilder{src: src}
	return b.value()
}

// smallObject is the member count up to which duplicate keys are found by
// comparing with each earlier key rather than with a set.
const smallObject = 16

func (b *treeBuilder) skipSpace() {
	for b.pos < len(b.src) {
		switch b.src[b.pos] {
		case ' ', '\t', '\n', '\r':
			b.pos++
		default:
			return
		}
	}
}

// value builds the value at pos (after whitespace) and moves past it.
func (b *treeBuilder) value() (any, error) {
	b.skipSpace()
	switch c := b.src[b.pos]; c {
	case '{':
		return b.object()
	case '[':
		return b.array()
	case '"':
		return b.str(), nil
	case 't':
		b.pos += len("true")
		return true, nil
	case 'f':
		b.pos += len("false")
		return false, nil
	case 'n':
		b.pos += len("null")
		return nil, nil
	default:
		start := b.pos
		for b.pos < len(b.src) && isNumberByte(b.src[b.pos]) {
			b.pos++
		}
		return json.Number(b.src[start:b.pos]), nil
	}
}

// str decodes the string at pos and moves past it.
func (b *treeBuilder) str() string {
	start := b.pos + 1
	i := start
	for b.src[i] != '"' && b.src[i] != '\\' {
		i++
	}
	if b.src[i] == '"' {
		b.pos = i + 1
		return b.src[start:i]
	}
	end := stringEnd(b.src, i)
	b.pos = end + 1
	return unquote(b.src[start:end])
}

func (b *treeBuilder) array() (any, error) {
	b.pos++ // [
	arr := []any{}
	b.skipSpace()
	if b.src[b.pos] == ']' {
		b.pos++
		return arr, nil
	}
	for {
		v, err := b.value()
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
		b.skipSpace()
		c := b.src[b.pos]
		b.pos++ // , or ]
		if c == ']' {
			return arr, nil
		}
	}
}

func (b *treeBuilder) object() (any, error) {
	b.pos++ // {
	obj := Object{}
	b.skipSpace()
	if b.src[b.pos] == '}' {
		b.pos++
		return obj, nil
	}
	var seen map[string]bool
	for {
		b.skipSpace()
		key := b.str()
		if b.duplicate(obj, &seen, key) {
			return nil, fmt.Errorf("canon: duplicate object key %q", key)
		}
		b.skipSpace()
		b.pos++ // :
		v, err := b.value()
		if err != nil {
			return nil, err
		}
		obj = append(obj, Member{Key: key, Value: v})
		b.skipSpace()
		c := b.src[b.pos]
		b.pos++ // , or }
		if c == '}' {
			return obj, nil
		}
	}
}

// duplicate reports whether key is already a member of obj, using *seen
// (made when obj grows past smallObject) for large objects.
func (b *treeBuilder) duplicate(obj Object, seen *map[string]bool, key string) bool {
	if len(obj) < smallObject {
		for _, m := range obj {
			if m.Key == key {
				return true
			}
		}
		return false
	}
	if *seen == nil {
		*seen = make(map[string]bool, 2*len(obj))
		for _, m := range obj {
			(*seen)[m.Key] = true
		}
	}
	if (*seen)[key] {
		return true
	}
	(*seen)[key] = true
	return false
}
