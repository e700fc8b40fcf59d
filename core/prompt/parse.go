package prompt

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/faults"
)

// ParseRequest reads a run request from JSON, validates it with every rule
// of RUNTIME §4.2–§4.3 in the original order, and returns its snapshot
// ([Request.Snapshot]). The run ID is the request's runId; when the request
// has none (absent or null), fallbackRunID is used, so Start passes a fresh
// ID and Resume passes "" (a resume request must name its run).
//
// A rule violation is a *[RequestError] with the original's exact message:
// legacy fields first ("systemPrompt is no longer accepted; provide the
// structured prompt configuration."), then unknown keys ("Run request
// contains unknown field x.", reported in JavaScript's key order), then
// each field. Text that is not one JSON object fails with a plain error.
func ParseRequest(data []byte, fallbackRunID string) (Request, error) {
	tree, err := canon.Parse(data)
	if err != nil {
		return Request{}, fmt.Errorf("prompt: read run request: %w", err)
	}
	obj, ok := asObject(tree)
	if !ok {
		return Request{}, typeError("Run request must be an object.")
	}
	obj = withFaults(obj)
	runID := any(fallbackRunID)
	if v, ok := obj.Get("runId"); ok && v != nil {
		runID = v
	}
	if err := validateTree(obj, stringOr(runID)); err != nil {
		return Request{}, err
	}
	if _, isString := runID.(string); !isString {
		return Request{}, typeError("runId must be a non-empty string.")
	}
	req, err := decodeTree(obj)
	if err != nil {
		return Request{}, err
	}
	req.RunID = runID.(string)
	return req.Snapshot(), nil
}

// ValidateRequest applies the rules of [ParseRequest] to a request built in
// Go, whose RunID must already be resolved. It returns nil or a
// *[RequestError].
func ValidateRequest(r Request) error {
	data, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("prompt: encode run request: %w", err)
	}
	_, err = ParseRequest(data, "")
	return err
}

// stringOr returns v when it is a string, else a blank string (which fails
// the non-empty check exactly as a non-string does).
func stringOr(v any) string {
	s, _ := v.(string)
	return s
}

// decodeTree turns a validated request tree into a Request. The loosely
// typed members are read by hand: compactOnStart and planMode count only
// when true (DECISIONS 18), checkpointTrust only when it is a string, and
// budget and checkpoint stay JSON.
func decodeTree(obj canon.Object) (Request, error) {
	var req Request
	strict := canon.Object{}
	for _, m := range obj {
		switch m.Key {
		case "compactOnStart":
			req.CompactOnStart = m.Value == true
		case "planMode":
			req.PlanMode = m.Value == true
		case "checkpointTrust":
			req.CheckpointTrust, _ = m.Value.(string)
		case "runId":
		case "budget", "checkpoint":
			raw, err := json.Marshal(m.Value)
			if err != nil {
				return Request{}, fmt.Errorf("prompt: encode %s: %w", m.Key, err)
			}
			if m.Key == "budget" {
				req.Budget = raw
			} else {
				req.Checkpoint = raw
			}
		case "completion":
			req.Completion = decodeCompletion(m.Value)
		default:
			strict = append(strict, m)
		}
	}
	raw, err := json.Marshal(strict)
	if err != nil {
		return Request{}, fmt.Errorf("prompt: encode run request: %w", err)
	}
	var typed Request
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&typed); err != nil {
		return Request{}, fmt.Errorf("prompt: decode validated run request: %w", err)
	}
	typed.CompactOnStart, typed.PlanMode, typed.CheckpointTrust = req.CompactOnStart, req.PlanMode, req.CheckpointTrust
	typed.Budget, typed.Checkpoint, typed.Completion = req.Budget, req.Checkpoint, req.Completion
	return typed, nil
}

// decodeCompletion reads a validated completion object; null gives nil.
func decodeCompletion(v any) *Completion {
	o, ok := asObject(v)
	if !ok {
		return nil
	}
	c := &Completion{}
	flag := func(key string) *bool {
		b, ok := get(o, key).(bool)
		if !ok {
			return nil
		}
		return &b
	}
	c.RequireFinalReportPersistence = flag("requireFinalReportPersistence")
	c.RequireInspection = flag("requireInspection")
	c.RequireTokenLedger = flag("requireTokenLedger")
	c.RequireTrace = flag("requireTrace")
	c.RequireValidation = flag("requireValidation")
	r, ok := asObject(get(o, "research"))
	if !ok {
		return c
	}
	c.Research = &Research{}
	if n, ok := safeNonNegativeInteger(get(r, "minFetchCalls")); ok {
		c.Research.MinFetchCalls = &n
	}
	if n, ok := safeNonNegativeInteger(get(r, "minSearchCalls")); ok {
		c.Research.MinSearchCalls = &n
	}
	if b, ok := get(r, "requireCitations").(bool); ok {
		c.Research.RequireCitations = &b
	}
	if list, ok := get(r, "requiredDomains").([]any); ok {
		c.Research.RequiredDomains = []string{}
		for _, d := range list {
			c.Research.RequiredDomains = append(c.Research.RequiredDomains, d.(string))
		}
	}
	return c
}

// withFaults drops what the prompt faults let through: the legacy request
// fields (faults.PromptAcceptLegacyFields) and the prompt configuration's
// unknown members (faults.PromptAcceptUnknownKeys). Without them it
// returns obj unchanged.
func withFaults(obj canon.Object) canon.Object {
	legacy, unknown := faults.On(faults.PromptAcceptLegacyFields), faults.On(faults.PromptAcceptUnknownKeys)
	if !legacy && !unknown {
		return obj
	}
	out := canon.Object{}
	for _, m := range obj {
		if legacy && slices.Contains(legacyRequestFields, m.Key) {
			continue
		}
		if p, ok := m.Value.(canon.Object); ok && unknown && m.Key == "prompt" {
			kept := canon.Object{}
			for _, pm := range p {
				if slices.Contains(knownPromptFields, pm.Key) {
					kept = append(kept, pm)
				}
			}
			m.Value = kept
		}
		out = append(out, m)
	}
	return out
}
