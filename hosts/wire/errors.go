package wire

import (
	"errors"
	"fmt"
	"strings"
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
	b.WriteString(e.Reason)
	if e.Quote != "" {
		fmt.Fprintf(&b, "; it sent %q", e.Quote)
	}
	return b.String()
}

// quoteLimit bounds how much of a host's output a ProtocolError quotes.
const quoteLimit = 200

func quote(b []byte) string {
	s := string(b)
	if len(s) > quoteLimit {
		return s[:quoteLimit] + "…"
	}
	return s
}
