package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/internal/redact"
)

// Error is a JSON-RPC error object. Two Errors match with errors.Is when
// their codes are equal.
type Error struct {
	Code    int64  `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

func (e *Error) Error() string { return fmt.Sprintf("jsonrpc2: code %d: %s", e.Code, e.Message) }

// Is reports whether target is an *Error with the same code.
func (e *Error) Is(target error) bool {
	var t *Error
	return errors.As(target, &t) && t.Code == e.Code
}

// JSON-RPC 2.0 error codes.
var (
	ErrParse          = &Error{Code: -32700, Message: "parse error"}
	ErrInvalidRequest = &Error{Code: -32600, Message: "invalid request"}
	ErrMethodNotFound = &Error{Code: -32601, Message: "method not found"}
	ErrInvalidParams  = &Error{Code: -32602, Message: "invalid params"}
	ErrInternal       = &Error{Code: -32603, Message: "internal error"}
	// ErrRequestCancelled is the LSP code for a request cancelled by the
	// caller; conform uses it for $/cancelRequest.
	ErrRequestCancelled = &Error{Code: -32800, Message: "request cancelled"}
)

// conform's own error codes, extensions of JSON-RPC 2.0 in the range the
// specification leaves to servers.
var (
	// ErrPortFailure is a structured port failure (CONTRACTS §2) of a
	// store, trace, fingerprint or restore request; its data is the port
	// error {code, message, retryable}.
	ErrPortFailure = &Error{Code: -32001, Message: "port failure"}
	// ErrNotInitialized answers any request but initialize and shutdown
	// sent before initialize succeeded.
	ErrNotInitialized = &Error{Code: -32002, Message: "host not initialized"}
	// ErrUnknownOutcome answers a tool/execute whose side effects are
	// unknown (DECISIONS 66): an adapter failure after dispatch started,
	// an output that fails its schema, or unverifiable mutation evidence.
	// Its data is an UnknownOutcome. The core fails the run closed.
	ErrUnknownOutcome = &Error{Code: -32010, Message: "unknown side-effect outcome"}
)

// PortFailure returns the protocol error carrying port error e.
func PortFailure(e *port.Error) *Error {
	return &Error{Code: ErrPortFailure.Code, Message: e.Code + ": " + e.Message, Data: e}
}

// AsPortError returns the port error carried by err, an ErrPortFailure
// received from the peer or built by PortFailure.
func AsPortError(err error) (*port.Error, bool) {
	var we *Error
	if !errors.As(err, &we) || we.Code != ErrPortFailure.Code {
		return nil, false
	}
	switch d := we.Data.(type) {
	case *port.Error:
		return d, true
	case port.Error:
		return &d, true
	}
	b, merr := json.Marshal(we.Data)
	if merr != nil {
		return nil, false
	}
	var pe port.Error
	if json.Unmarshal(b, &pe) != nil || pe.Code == "" {
		return nil, false
	}
	return &pe, true
}

// UnknownOutcomeError returns the protocol error for a tool call whose
// side effects are unknown.
func UnknownOutcomeError(canonicalID, reason string) *Error {
	return &Error{Code: ErrUnknownOutcome.Code, Message: "unknown side-effect outcome: " + reason,
		Data: UnknownOutcome{CanonicalToolID: canonicalID, Reason: reason}}
}

// A ProtocolError says that a host broke the protocol: it sent something
// that is not JSON-RPC, that fails the message's schema, or nothing at all.
type ProtocolError struct {
	Method  string // the method being answered, if known
	Pointer string // JSON pointer of the offending field, if known
	Reason  string
	Quote   string // what the host sent, truncated
}

func (e *ProtocolError) Error() string {
	var b strings.Builder
	b.WriteString("host broke the protocol")
	if e.Method != "" {
		fmt.Fprintf(&b, " answering %q", e.Method)
	}
	b.WriteString(": ")
	if e.Pointer != "" {
		fmt.Fprintf(&b, "at %s: ", e.Pointer)
	}
	b.WriteString(redact.String(e.Reason))
	if e.Quote != "" {
		fmt.Fprintf(&b, "; it sent %q", e.Quote)
	}
	return b.String()
}

// quoteLimit bounds how much of a host's output a ProtocolError quotes.
const quoteLimit = 200

// Quote returns the start of what a host sent, at most 200 bytes with its
// secrets redacted, for the Quote of a ProtocolError.
func Quote(b []byte) string {
	if len(b) > 4*quoteLimit {
		b = b[:4*quoteLimit] // a secret longer than this is cut, not shown
	}
	s := redact.String(string(b))
	if len(s) > quoteLimit {
		return strings.ToValidUTF8(s[:quoteLimit], "") + "…"
	}
	return s
}

// A MethodError is a JSON-RPC error the host answered a request with,
// named by the request's method, so that a host author sees which call
// failed. errors.As finds the *Error inside.
type MethodError struct {
	Method string
	Err    *Error
}

func (e *MethodError) Error() string {
	return fmt.Sprintf("the host answered %s with JSON-RPC error %d: %s", e.Method, e.Err.Code, e.Err.Message)
}

func (e *MethodError) Unwrap() error { return e.Err }
