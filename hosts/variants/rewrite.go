package variants

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// A Rewrite says how a variant rewrites a tool result (port.ToolResult on
// the wire) and its content when that is JSON: the choices of form the
// contract leaves to the host.
type Rewrite struct {
	// Text rewords one free-text value: a summary, a message, a warning.
	// Nil keeps the reference host's words.
	Text func(string) string
	// Reverse writes the members of every object in reverse order.
	Reverse bool
	// Command, when not nil, rewrites a command.run result (res) and its
	// parsed content, given the host's store directory.
	Command func(storeDir string, res, content *node) error
}

// freeText are the members whose string value (or array of strings) is free
// text, at any depth of a tool result or its JSON content: CONTRACTS.md
// calls a summary "never evidence", and warnings and messages are prose.
var freeText = map[string]bool{"summary": true, "message": true, "warnings": true}

// apply rewrites the serialized tool result b of a host whose store
// directory is storeDir.
func (rw *Rewrite) apply(b []byte, storeDir string) ([]byte, error) {
	root, err := parse(b)
	if err != nil {
		return nil, fmt.Errorf("variant: cannot parse the reference host's tool result: %w", err)
	}
	// The content of a tool result is a string the host chose to write;
	// when it is a JSON object or array it is rewritten as JSON too.
	if root.obj != nil {
		for i := range root.obj {
			m := &root.obj[i]
			if m.key != "content" || m.val.str == nil {
				continue
			}
			inner, err := parse([]byte(*m.val.str))
			if err != nil || (inner.obj == nil && inner.arr == nil) {
				continue
			}
			if id := root.member("canonicalToolId"); rw.Command != nil && id != nil && id.str != nil && *id.str == "command.run" {
				if err := rw.Command(storeDir, root, inner); err != nil {
					return nil, err
				}
			}
			rw.walk(inner)
			s := string(inner.encode(rw.Reverse))
			m.val.str = &s
		}
	}
	rw.walk(root)
	return root.encode(rw.Reverse), nil
}

// walk rewords the free text under n.
func (rw *Rewrite) walk(n *node) {
	for i := range n.obj {
		m := &n.obj[i]
		if freeText[m.key] && rw.Text != nil {
			switch {
			case m.val.str != nil:
				s := rw.Text(*m.val.str)
				m.val.str = &s
				continue
			case m.val.isArr:
				for _, e := range m.val.arr {
					if e.str != nil {
						s := rw.Text(*e.str)
						e.str = &s
					}
				}
			}
		}
		rw.walk(m.val)
	}
	for _, e := range n.arr {
		rw.walk(e)
	}
}

// A node is a JSON value that keeps its members' order.
type node struct {
	obj   []member
	isObj bool
	arr   []*node
	isArr bool
	str   *string
	raw   json.RawMessage // numbers, booleans, null
}

type member struct {
	key string
	val *node
}

func parse(b []byte) (*node, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	n, err := decode(d)
	if err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, fmt.Errorf("trailing data after the JSON value")
	}
	return n, nil
}

func decode(d *json.Decoder) (*node, error) {
	t, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch t := t.(type) {
	case json.Delim:
		switch t {
		case '{':
			n := &node{isObj: true, obj: []member{}}
			for d.More() {
				kt, err := d.Token()
				if err != nil {
					return nil, err
				}
				v, err := decode(d)
				if err != nil {
					return nil, err
				}
				n.obj = append(n.obj, member{key: kt.(string), val: v})
			}
			_, err := d.Token()
			return n, err
		case '[':
			n := &node{isArr: true, arr: []*node{}}
			for d.More() {
				v, err := decode(d)
				if err != nil {
					return nil, err
				}
				n.arr = append(n.arr, v)
			}
			_, err := d.Token()
			return n, err
		}
		return nil, fmt.Errorf("unexpected %v", t)
	case string:
		return &node{str: &t}, nil
	case json.Number:
		return &node{raw: json.RawMessage(t)}, nil
	case bool:
		if t {
			return &node{raw: json.RawMessage("true")}, nil
		}
		return &node{raw: json.RawMessage("false")}, nil
	default:
		return &node{raw: json.RawMessage("null")}, nil
	}
}

// encode writes n compactly, its object members reversed when reverse.
func (n *node) encode(reverse bool) []byte {
	var buf bytes.Buffer
	n.write(&buf, reverse)
	return buf.Bytes()
}

func (n *node) write(buf *bytes.Buffer, reverse bool) {
	switch {
	case n.isObj:
		buf.WriteByte('{')
		for i := range n.obj {
			j := i
			if reverse {
				j = len(n.obj) - 1 - i
			}
			if i > 0 {
				buf.WriteByte(',')
			}
			writeString(buf, n.obj[j].key)
			buf.WriteByte(':')
			n.obj[j].val.write(buf, reverse)
		}
		buf.WriteByte('}')
	case n.isArr:
		buf.WriteByte('[')
		for i, e := range n.arr {
			if i > 0 {
				buf.WriteByte(',')
			}
			e.write(buf, reverse)
		}
		buf.WriteByte(']')
	case n.str != nil:
		writeString(buf, *n.str)
	default:
		buf.Write(n.raw)
	}
}

func writeString(buf *bytes.Buffer, s string) {
	e := json.NewEncoder(buf)
	e.SetEscapeHTML(false)
	_ = e.Encode(s)             // a Go string always encodes
	buf.Truncate(buf.Len() - 1) // Encode's newline
}
