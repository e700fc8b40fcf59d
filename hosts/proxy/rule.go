package proxy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/wire"
)

// Actions a rule can take.
const (
	ActionFail             = "fail"
	ActionClose            = "close"
	ActionDelay            = "delay"
	ActionCancel           = "cancel"
	ActionDropAck          = "drop_ack"
	ActionCorruptResult    = "corrupt_result"
	ActionThrowAfterCommit = "throw_after_commit"
	ActionForgeEffects     = "forge_effects"
	ActionMismatchID       = "mismatch_id"
)

// Actions returns every action, in the order of the package documentation.
func Actions() []string {
	return []string{ActionFail, ActionClose, ActionDelay, ActionCancel, ActionDropAck,
		ActionCorruptResult, ActionThrowAfterCommit, ActionForgeEffects, ActionMismatchID}
}

// Corruptions of corrupt_result.
const (
	CorruptEnvelope = "envelope"
	CorruptJSON     = "json"
)

// A Rule is one fault. Method and Action are required; the other fields
// narrow the match or parameterize the action, and each is allowed only
// where it means something.
type Rule struct {
	// Method is the JSON-RPC method of the requests the rule matches.
	Method string `json:"method"`
	// ModelName matches tool/execute requests for this model-facing name.
	ModelName string `json:"modelName,omitempty"`
	// CanonicalToolID matches tool/execute requests whose model name the
	// host's last tool set maps to this canonical ID.
	CanonicalToolID string `json:"canonicalToolId,omitempty"`
	// Nth makes the rule fire on the Nth matching request only (1-based);
	// 0 fires on every matching request.
	Nth int `json:"nth,omitempty"`
	// Action is what the rule does; see the package documentation.
	Action string `json:"action"`

	// Error is the JSON-RPC error of fail and throw_after_commit.
	Error *wire.Error `json:"error,omitempty"`
	// DelayMs is how long delay holds the request.
	DelayMs int `json:"delayMs,omitempty"`
	// CancelAfterMs is how long after forwarding cancel sends
	// $/cancelRequest.
	CancelAfterMs int `json:"cancelAfterMs,omitempty"`
	// Corruption is the kind of corrupt_result: "envelope" (default) or
	// "json".
	Corruption string `json:"corruption,omitempty"`
	// Effects are the effects forge_effects adds.
	Effects *port.Effects `json:"effects,omitempty"`
	// ClaimCanonicalToolID is the canonical ID mismatch_id puts in the
	// result.
	ClaimCanonicalToolID string `json:"claimCanonicalToolId,omitempty"`
}

// DecodeRules decodes a JSON array of rules strictly (unknown fields and
// trailing data are errors) and validates them.
func DecodeRules(data []byte) ([]Rule, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var rules []Rule
	if err := dec.Decode(&rules); err != nil {
		return nil, fmt.Errorf("proxy: rules: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("proxy: rules: data after the rule list")
	}
	if err := Validate(rules); err != nil {
		return nil, err
	}
	return rules, nil
}

// Validate checks every rule and returns all problems, each naming the
// rule's index, joined with errors.Join.
func Validate(rules []Rule) error {
	var errs []error
	for i, r := range rules {
		for _, msg := range r.problems() {
			errs = append(errs, fmt.Errorf("proxy: rule %d: %s", i, msg))
		}
	}
	return errors.Join(errs...)
}

func (r Rule) problems() []string {
	var out []string
	if r.Method == "" {
		out = append(out, "method is required")
	}
	if !slices.Contains(Actions(), r.Action) {
		out = append(out, fmt.Sprintf("unknown action %q (known: %v)", r.Action, Actions()))
	}
	if (r.ModelName != "" || r.CanonicalToolID != "") && r.Method != wire.MethodExecute {
		out = append(out, fmt.Sprintf("modelName and canonicalToolId match only %q", wire.MethodExecute))
	}
	if r.Nth < 0 {
		out = append(out, "nth must not be negative")
	}
	if r.DelayMs < 0 || r.CancelAfterMs < 0 {
		out = append(out, "delays must not be negative")
	}
	only := func(set bool, field string, actions ...string) {
		if set && !slices.Contains(actions, r.Action) {
			out = append(out, fmt.Sprintf("%s is not used by action %q", field, r.Action))
		}
	}
	only(r.Error != nil, "error", ActionFail, ActionThrowAfterCommit)
	only(r.DelayMs != 0, "delayMs", ActionDelay)
	only(r.CancelAfterMs != 0, "cancelAfterMs", ActionCancel)
	only(r.Corruption != "", "corruption", ActionCorruptResult)
	only(r.Effects != nil, "effects", ActionForgeEffects)
	only(r.ClaimCanonicalToolID != "", "claimCanonicalToolId", ActionMismatchID)
	if r.Corruption != "" && r.Corruption != CorruptEnvelope && r.Corruption != CorruptJSON {
		out = append(out, fmt.Sprintf("unknown corruption %q", r.Corruption))
	}
	if r.Action == ActionForgeEffects && r.Effects == nil {
		out = append(out, "forge_effects needs effects")
	}
	if r.Action == ActionMismatchID && r.ClaimCanonicalToolID == "" {
		out = append(out, "mismatch_id needs claimCanonicalToolId")
	}
	return out
}

// preDispatch reports whether the action acts before the request reaches
// the host and ends it there.
func (r Rule) preDispatch() bool { return r.Action == ActionFail || r.Action == ActionClose }

// onAnswer reports whether the action rewrites the host's answer.
func (r Rule) onAnswer() bool {
	switch r.Action {
	case ActionDropAck, ActionCorruptResult, ActionThrowAfterCommit, ActionForgeEffects, ActionMismatchID:
		return true
	}
	return false
}
