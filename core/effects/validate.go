package effects

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/catalog"
)

// A ToolRef names one tool: the two descriptor fields the profile functions
// need.
type ToolRef struct {
	ID        string `json:"id"`
	ModelName string `json:"modelName"`
}

// RefsOf returns the ToolRef of each descriptor, in the given order.
func RefsOf(descriptors []catalog.Descriptor) []ToolRef {
	out := make([]ToolRef, len(descriptors))
	for i, d := range descriptors {
		out[i] = ToolRef{ID: d.ID, ModelName: d.ModelName}
	}
	return out
}

// ProfileInput is the input of ValidateProfile. A nil Tools means the core
// catalog ([catalog.Core]); a nil Profile means the core profile. Non-nil
// empty values are used as given.
type ProfileInput struct {
	Tools   []ToolRef
	Profile map[string][]string
}

// profileValue is one profile entry as received: JSON input may carry a
// value that is not an array, and elements that are not strings.
type profileValue struct {
	isArray bool
	values  []string
}

// ValidateProfile returns every catalog/profile drift issue of in, in the
// order and with the exact messages of CONTRACTS §7.4; it does not stop at
// the first. An empty result means the profile is valid for the catalog.
func ValidateProfile(in ProfileInput) []string {
	profile := in.Profile
	if profile == nil {
		profile = CoreProfile()
	}
	values := make(map[string]profileValue, len(profile))
	for id, caps := range profile {
		values[id] = profileValue{isArray: true, values: caps}
	}
	return validate(in.Tools, values)
}

// ValidateProfileJSON is ValidateProfile for a profile received as a JSON
// object (for example a host's effectCapabilities). It also reports values
// that are not arrays ("Effect profile for <id> must be an array.") and
// elements that are not strings (as unknown capabilities, spelled as their
// JSON text). A nil tools means the core catalog. It fails only when data is
// not a JSON object.
func ValidateProfileJSON(tools []ToolRef, data []byte) ([]string, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil || raw == nil {
		if err == nil {
			err = errors.New("null")
		}
		return nil, fmt.Errorf("effects: profile is not a JSON object: %w", err)
	}
	values := make(map[string]profileValue, len(raw))
	for id, v := range raw {
		var elems []json.RawMessage
		if bytes.HasPrefix(bytes.TrimLeft(v, " \t\r\n"), []byte("[")) && json.Unmarshal(v, &elems) == nil {
			pv := profileValue{isArray: true, values: make([]string, len(elems))}
			for i, e := range elems {
				var s string
				if json.Unmarshal(e, &s) != nil {
					s = string(e)
				}
				pv.values[i] = s
			}
			values[id] = pv
			continue
		}
		values[id] = profileValue{}
	}
	return validate(tools, values), nil
}

func validate(tools []ToolRef, profile map[string]profileValue) []string {
	if tools == nil {
		tools = RefsOf(catalog.Core())
	}
	var issues []string
	ids := map[string]bool{}
	names := map[string]bool{}
	for _, t := range tools {
		switch {
		case canon.IsBlank(t.ID):
			issues = append(issues, "Catalog contains an empty canonical tool ID.")
		case ids[t.ID]:
			issues = append(issues, fmt.Sprintf("Duplicate canonical tool ID: %s.", t.ID))
		default:
			ids[t.ID] = true
		}
		switch {
		case canon.IsBlank(t.ModelName):
			id := t.ID
			if id == "" {
				id = "<empty>"
			}
			issues = append(issues, fmt.Sprintf("Tool %s has an empty model name.", id))
		case names[t.ModelName]:
			issues = append(issues, fmt.Sprintf("Duplicate model-facing tool name: %s.", t.ModelName))
		default:
			names[t.ModelName] = true
		}
	}
	for _, id := range slices.SortedFunc(maps.Keys(ids), canon.CompareText) {
		if _, ok := profile[id]; !ok {
			issues = append(issues, fmt.Sprintf("Effect profile is missing core tool %s.", id))
		}
	}
	for _, id := range slices.SortedFunc(maps.Keys(profile), canon.CompareText) {
		if !ids[id] {
			issues = append(issues, fmt.Sprintf("Effect profile contains unknown core tool %s.", id))
		}
		pv := profile[id]
		if !pv.isArray {
			issues = append(issues, fmt.Sprintf("Effect profile for %s must be an array.", id))
			continue
		}
		normalized := sortedUnique(pv.values)
		if len(normalized) != len(pv.values) {
			issues = append(issues, fmt.Sprintf("Effect profile for %s contains duplicates.", id))
		}
		for i, v := range normalized {
			if v != pv.values[i] {
				issues = append(issues, fmt.Sprintf("Effect profile for %s must use canonical deterministic order.", id))
				break
			}
		}
		for _, v := range pv.values {
			if !IsCapability(v) {
				issues = append(issues, fmt.Sprintf("Effect profile for %s contains unknown capability %s.", id, v))
			}
		}
	}
	return issues
}

// AssertProfile returns an error when ValidateProfile reports any issue; its
// message is "Invalid AI Coder core tool effect profile: " followed by the
// issues joined by a space. The original runs this check at module load; a
// failure is a construction error of the catalog and profile, never a
// condition a host may recover from.
func AssertProfile(in ProfileInput) error {
	if issues := ValidateProfile(in); len(issues) > 0 {
		return errors.New("Invalid AI Coder core tool effect profile: " + strings.Join(issues, " "))
	}
	return nil
}

// AssertCoreCapabilities checks a declared capability list for canonicalID
// against the core profile. It returns nil when canonicalID is not a core
// tool (extension and MCP tools are host-governed). Otherwise the input
// order does not matter, but a list with duplicates or a different set fails
// with "Core tool <id> effect capabilities drifted; expected [<a, b>],
// received [<actual as given>]."
func AssertCoreCapabilities(canonicalID string, actual []string) error {
	expected, ok := CoreCapabilities(canonicalID)
	if !ok {
		return nil
	}
	normalized := sortedUnique(actual)
	if len(normalized) != len(actual) || !slices.Equal(normalized, expected) {
		return fmt.Errorf("Core tool %s effect capabilities drifted; expected [%s], received [%s].",
			canonicalID, strings.Join(expected, ", "), strings.Join(actual, ", "))
	}
	return nil
}
