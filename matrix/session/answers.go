package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/internal/redact"
)

// This file holds what the harness makes of a host's answers beyond the
// wire client's own checks: JSON-RPC errors no conformant host answers
// the harness's well-formed requests with, and tool results whose content
// is not the JSON object PROTOCOL.md and CONTRACTS.md require.

// breaksProtocol reports whether a host that answers method with the
// JSON-RPC error code breaks the protocol (PROTOCOL.md#errors). The
// harness sends only valid, initialized requests for methods the host
// advertised, so a parse, invalid-request, method-not-found,
// invalid-params or not-initialized error is the host's; a port failure
// answers only the port methods, an unknown outcome only tool/execute. An
// internal error, a cancellation and codes the table does not name are
// failures the core handles (an unknown outcome for tool/execute), not
// breaks.
func breaksProtocol(method string, code int64) bool {
	switch code {
	case wire.ErrParse.Code, wire.ErrInvalidRequest.Code, wire.ErrMethodNotFound.Code,
		wire.ErrInvalidParams.Code, wire.ErrNotInitialized.Code:
		return true
	case wire.ErrPortFailure.Code:
		return method == wire.MethodExecute || method == wire.MethodToolsList
	case wire.ErrUnknownOutcome.Code:
		return method != wire.MethodExecute
	}
	return false
}

// errorNames are the names of the codes of PROTOCOL.md's error table that
// breaksProtocol refuses.
var errorNames = map[int64]string{
	wire.ErrParse.Code: "parse error", wire.ErrInvalidRequest.Code: "invalid request",
	wire.ErrMethodNotFound.Code: "method not found", wire.ErrInvalidParams.Code: "invalid params",
	wire.ErrNotInitialized.Code: "not initialized", wire.ErrPortFailure.Code: "port failure",
	wire.ErrUnknownOutcome.Code: "unknown outcome",
}

// answerError returns err as the harness reports it: a JSON-RPC error the
// host broke the protocol with becomes a *wire.ProtocolError naming the
// method, the call (what, e.g. ` for call "l" (tool list_files)`), the
// code and the message; anything else is returned as it is.
func answerError(err error, what string) error {
	var me *wire.MethodError
	if errors.As(err, &me) && me.Method == wire.MethodExecute && me.Err.Code == wire.ErrRequestCancelled.Code {
		return fmt.Errorf("%w; %s", err, cancelledNote)
	}
	if !errors.As(err, &me) || !breaksProtocol(me.Method, me.Err.Code) {
		return err
	}
	return &wire.ProtocolError{Method: me.Method, Reason: fmt.Sprintf(
		"it answered%s with JSON-RPC error %d %q, and %d (%s) is no answer to a well-formed %s; see hosts/wire/PROTOCOL.md#errors",
		what, me.Err.Code, me.Err.Message, me.Err.Code, errorNames[me.Err.Code], me.Method)}
}

// cancelledNote follows a -32800 answer to a tool/execute that reached the
// core, that is one the core did not give up on: the harness cancelled it
// while the run went on, and the answer is the call's result.
const cancelledNote = `a cancelled tool/execute is answered with its structured result, never -32800: "Cancellation makes an in-flight side-effect outcome unknown unless the host returns a structured result"; see hosts/wire/PROTOCOL.md#timeouts-and-cancellation`

// quoteLimit bounds how much of a result's content an error quotes.
const quoteLimit = 200

// contentError returns a *wire.ProtocolError when the content of the
// result the host answered call callID of tool model with is not a JSON
// object, or nil.
func contentError(callID, model, content string) error {
	var obj map[string]json.RawMessage
	err := json.Unmarshal([]byte(content), &obj)
	if err == nil {
		return nil
	}
	reason := "has content that is not JSON: " + err.Error()
	if json.Valid([]byte(content)) {
		reason = "has content that is JSON but not an object"
	}
	q := content
	if len(q) > quoteLimit {
		q = strings.ToValidUTF8(q[:quoteLimit], "") + "…"
	}
	return &wire.ProtocolError{Method: wire.MethodExecute,
		Reason: fmt.Sprintf("the host's result for call %q (tool %s) %s (see hosts/wire/CONTRACTS.md#result-envelope)", callID, model, reason),
		Quote:  redact.String(q)}
}
