package jsonrpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/galaxy-stack/conform/hosts/wire"
)

// A Message is a JSON-RPC 2.0 message: a *Request or a *Response. The set
// is closed; no other type implements Message.
type Message interface {
	// fill writes the message into its wire form. It is unexported, which
	// closes the set of implementations.
	fill(e *Envelope)
}

// A Request asks the peer to run Method. A request whose ID is nil is a
// notification, which the peer does not answer. ID is the request's JSON
// id as sent (a number or a string).
type Request struct {
	ID     json.RawMessage
	Method string
	Params json.RawMessage
}

// IsCall reports whether r expects a response.
func (r *Request) IsCall() bool { return r.ID != nil }

func (r *Request) fill(e *Envelope) {
	if r.ID != nil {
		id := r.ID
		e.ID = &id
	}
	e.Method, e.Params = r.Method, r.Params
}

// A Response answers the request with the same ID: Result on success,
// Error otherwise.
type Response struct {
	ID     json.RawMessage
	Result json.RawMessage
	Error  *wire.Error
}

func (r *Response) fill(e *Envelope) {
	id := r.ID
	e.ID = &id
	e.Result, e.Error = r.Result, r.Error
}

// An Envelope is the wire form of any message, with the members of both
// requests and responses. A Conn hands out Messages; Envelope is for code
// that reads recorded traffic line by line (transcripts, the fault proxy).
// A request has Method and ID; a notification has Method and no ID; a
// response has ID and either Result or Error.
type Envelope struct {
	JSONRPC string           `json:"jsonrpc"`
	ID      *json.RawMessage `json:"id,omitempty"`
	Method  string           `json:"method,omitempty"`
	Params  json.RawMessage  `json:"params,omitempty"`
	Result  json.RawMessage  `json:"result,omitempty"`
	Error   *wire.Error      `json:"error,omitempty"`
}

// IsRequest reports whether e is a request or a notification.
func (e *Envelope) IsRequest() bool { return e.Method != "" }

// version is the value of every message's "jsonrpc" member.
const version = "2.0"

// EncodeMessage returns the wire form of m, one line of JSON.
func EncodeMessage(m Message) ([]byte, error) {
	e := Envelope{JSONRPC: version}
	m.fill(&e)
	b, err := json.Marshal(&e)
	if err != nil {
		return nil, fmt.Errorf("jsonrpc: encoding a message: %w", err)
	}
	return b, nil
}

// errNoID is returned by DecodeMessage for a response without an id.
var errNoID = errors.New("response without an id")

// DecodeMessage parses one line of JSON into a *Request (it has a method)
// or a *Response. It checks the shape Go can decode, not the published
// schemas: a strict Conn validates those first.
func DecodeMessage(line []byte) (Message, error) {
	// The envelope's members, with params and result left in line rather
	// than copied out of it.
	var e struct {
		JSONRPC string           `json:"jsonrpc"`
		ID      *json.RawMessage `json:"id,omitempty"`
		Method  string           `json:"method,omitempty"`
		Params  RawView          `json:"params,omitempty"`
		Result  RawView          `json:"result,omitempty"`
		Error   *wire.Error      `json:"error,omitempty"`
	}
	e.Params.In, e.Result.In = line, line
	if err := json.Unmarshal(line, &e); err != nil {
		return nil, err
	}
	var id json.RawMessage
	if e.ID != nil {
		id = *e.ID
	}
	if e.Method != "" {
		return &Request{ID: id, Method: e.Method, Params: e.Params.Raw}, nil
	}
	if e.ID == nil {
		return nil, errNoID
	}
	return &Response{ID: id, Result: e.Result.Raw, Error: e.Error}, nil
}

// envelopeMembers gathers the members of a line that DecodeMessage reads,
// as [wire.ViewTreeMembers] reports them, so that a strict connection,
// which parses every line into a tree, builds its message from that one
// parse (see message).
type envelopeMembers struct {
	id, params, result, errText []byte
	seen                        [5]bool // jsonrpc, method, id, params, result: each at most once
	hasError, other             bool
}

// add records one member; a name DecodeMessage would not read exactly as
// sent (one that repeats, or one it would match ignoring case) marks the
// line for DecodeMessage itself.
func (m *envelopeMembers) add(name string, raw []byte) {
	var slot int
	switch name {
	case "jsonrpc", "method":
		// read from the tree
		if name == "jsonrpc" {
			slot = 0
		} else {
			slot = 1
		}
	case "id":
		slot, m.id = 2, raw
	case "params":
		slot, m.params = 3, raw
	case "result":
		slot, m.result = 4, raw
	case "error":
		if m.hasError {
			m.other = true
		}
		m.hasError, m.errText = true, raw
		return
	default:
		m.other = true
		return
	}
	if m.seen[slot] {
		m.other = true
	}
	m.seen[slot] = true
}

// errUndecided is returned by envelopeMembers.message when only
// DecodeMessage can say what the line is.
var errUndecided = errors.New("jsonrpc: decode the line")

// message returns what DecodeMessage returns for the line whose tree is
// tree and whose members m recorded, or errUndecided when it cannot be
// sure of giving the same answer (a repeated, unknown or differently
// cased member, a member of a type DecodeMessage would reject, an error
// member that does not decode); the caller then asks DecodeMessage.
func (m *envelopeMembers) message(tree map[string]any) (Message, error) {
	if m.other {
		return nil, errUndecided
	}
	if v, present := tree["jsonrpc"]; present && v != nil {
		if _, isString := v.(string); !isString {
			return nil, errUndecided
		}
	}
	var method string
	if v, present := tree["method"]; present && v != nil {
		s, isString := v.(string)
		if !isString {
			return nil, errUndecided
		}
		// The message outlives the line's checks; its method is kept
		// (in logs, in maps of calls), so it owns its text.
		method = strings.Clone(s)
	}
	// DecodeMessage decodes an error member whatever the message is, and
	// fails when it does not decode.
	var e *wire.Error
	if m.hasError && string(m.errText) != "null" {
		e = new(wire.Error)
		if json.Unmarshal(m.errText, e) != nil {
			return nil, errUndecided
		}
	}
	var id json.RawMessage
	if m.id != nil && string(m.id) != "null" {
		id = bytes.Clone(m.id)
	}
	if method != "" {
		return &Request{ID: id, Method: method, Params: json.RawMessage(m.params)}, nil
	}
	if id == nil {
		return nil, errNoID
	}
	return &Response{ID: id, Result: json.RawMessage(m.result), Error: e}, nil
}

// encodeMarshaled is EncodeMessage for a message whose params or result
// json.Marshal produced, as every message a Conn sends: such text is
// compact and has its HTML characters escaped already, so it is what
// json.Marshal would write for it again, and it is copied rather than
// compacted a second time. A message with anything else to encode (an
// error, an id or a method that escaping or checking could change) is
// left to EncodeMessage.
func encodeMarshaled(m Message) ([]byte, error) {
	var (
		id     json.RawMessage
		method string
		raw    json.RawMessage
		member string
	)
	switch m := m.(type) {
	case *Request:
		id, method, raw, member = m.ID, m.Method, m.Params, `,"params":`
	case *Response:
		if m.Error != nil || m.ID == nil {
			return EncodeMessage(m)
		}
		id, raw, member = m.ID, m.Result, `,"result":`
	default:
		return EncodeMessage(m)
	}
	if (id != nil && !plainID(id)) || !plainText(method) {
		return EncodeMessage(m)
	}
	const head = `{"jsonrpc":"` + version + `"`
	b := make([]byte, 0, len(head)+len(`,"id":`)+len(id)+len(`,"method":""`)+len(method)+len(member)+len(raw)+1)
	b = append(b, head...)
	if id != nil {
		b = append(append(b, `,"id":`...), id...)
	}
	if method != "" {
		b = append(append(append(b, `,"method":"`...), method...), '"')
	}
	if len(raw) > 0 {
		b = append(append(b, member...), raw...)
	}
	return append(b, '}'), nil
}

// plainID reports whether id is an integer without a sign other than
// minus and without leading zeros, or a string of plainText: JSON text
// that json.Marshal writes as it is.
func plainID(id []byte) bool {
	if len(id) >= 2 && id[0] == '"' && id[len(id)-1] == '"' {
		return plainText(string(id[1 : len(id)-1]))
	}
	digits := id
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || (digits[0] == '0' && len(digits) > 1) {
		return false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// plainText reports whether json.Marshal writes s between quotes as it
// is: printable ASCII without a quote, a backslash or a character it
// escapes for HTML.
func plainText(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c > 0x7e, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return false
		}
	}
	return true
}
