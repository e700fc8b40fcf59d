package doubles

import (
	"encoding/json"
	"fmt"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/core/port"
)

// tailFraction is the share of bounded output kept from the end
// (LAB_AND_HOSTS §20.2 step 7).
const tailFraction = 0.25

// outcome is what a double decided: an output in its key order, or a typed
// failure.
type outcome struct {
	output       canon.Object
	summary      string
	trust        string
	stateVersion string // "" when the call changes or reports no state
	fail         *port.ToolError
	err          error // the double could not build its answer
}

// contractError is a typed failure of a double.
func contractError(code, message string) outcome {
	return outcome{fail: &port.ToolError{Code: code, Message: message, Retryable: retryable(code)}}
}

func invalid(message string) outcome { return contractError(port.CodeInvalidInput, message) }

func retryable(code string) bool {
	return code == port.CodeIOError || code == port.CodeUnavailable
}

func (o outcome) result(id string) (port.ToolResult, error) {
	if o.err != nil {
		return port.ToolResult{}, o.err
	}
	if o.fail != nil {
		return failureResult(id, *o.fail), nil
	}
	b, err := json.Marshal(o.output)
	if err != nil {
		return port.ToolResult{}, err
	}
	r := port.ToolResult{
		OK: true, CanonicalToolID: id, Content: string(b), Summary: o.summary, Trust: o.trust,
		EffectsAuthority: effects.AuthorityHost,
		Effects:          &port.Effects{Approval: effects.ApprovalNotRequired, StateVersion: o.stateVersion},
	}
	if d, ok := catalog.ByID(id); ok {
		tf := tailFraction
		r.OutputLimits = &port.OutputLimits{MaxBytes: d.MaxOutputBytes, MaxTokens: d.MaxOutputTokens, TailFraction: &tf}
	}
	return r, nil
}

func failure(id, code, message string) port.ToolResult {
	return failureResult(id, port.ToolError{Code: code, Message: message, Retryable: retryable(code)})
}

// failureResult is the error envelope of LAB_AND_HOSTS §20.2 step 8. Its
// content is the compact JSON {"ok":false,"error":…}; an executor that
// knows the call ID adds it with [FailureContent].
func failureResult(id string, e port.ToolError) port.ToolResult {
	return port.ToolResult{
		OK: false, CanonicalToolID: id, Content: FailureContent(e, ""), Summary: e.Message,
		Trust: "trusted", Error: &e,
	}
}

// FailureContent renders the model-visible content of a failed call: the
// compact JSON {"ok":false,"error":{…},"toolCallId":…}, without toolCallId
// when callID is "".
func FailureContent(e port.ToolError, callID string) string {
	o := canon.Object{{Key: "ok", Value: false}, {Key: "error", Value: e}}
	if callID != "" {
		o = append(o, canon.Member{Key: "toolCallId", Value: callID})
	}
	b, err := json.Marshal(o)
	if err != nil {
		return e.Message
	}
	return string(b)
}

// obj builds an ordered JSON object from alternating keys and values,
// dropping members whose value is nil.
func obj(kv ...any) canon.Object {
	o := make(canon.Object, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == nil {
			continue
		}
		o = append(o, canon.Member{Key: kv[i].(string), Value: kv[i+1]})
	}
	return o
}

// provenance is {source, trust, retrievedAt, contentHash?}.
func provenance(source, trust, contentHash string) canon.Object {
	o := obj("source", source, "trust", trust, "retrievedAt", Epoch)
	if contentHash != "" {
		o = append(o, canon.Member{Key: "contentHash", Value: contentHash})
	}
	return o
}

// withState sets o's stateVersion to conform's version of a double's state:
// SHA-256 over the canonical JSON of v.
func (o outcome) withState(v any) outcome {
	h, err := canon.Hash(v)
	if err != nil {
		o.err = fmt.Errorf("doubles: state version: %w", err)
	}
	o.stateVersion = h
	return o
}
