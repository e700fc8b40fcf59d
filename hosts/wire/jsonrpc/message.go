package jsonrpc

import (
	"encoding/json"
	"errors"
	"fmt"

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
