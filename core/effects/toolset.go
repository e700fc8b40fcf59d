package effects

import (
	"maps"
	"slices"
	"strings"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/port"
)

// CheckToolSet applies the tool-set policy check of CONTRACTS §7.7 when a
// tool set is loaded, and returns its normalized effect policy (each list
// deduplicated and sorted). Failures, TOOL_EXECUTION *Errors, in order:
//
//   - no canonicalToolIds or no effectCapabilities: "Tool set is missing its host effect capability policy.";
//   - a blank model name or canonical ID in the mapping: "Tool canonical id mapping is malformed.";
//   - definition names and mapped names differ as sorted lists: "Every
//     active model tool must have exactly one canonical tool id mapping.";
//   - two names mapped to one canonical ID: "Active model tools must map one-to-one to canonical tool ids.";
//   - per policy entry in canonical order: a blank ID ("Tool effect
//     capability policy is malformed."), an unknown capability ("Unknown
//     effect capability declared for <id>."), a core ID whose set differs
//     from the core profile (the AssertCoreCapabilities message);
//   - mapped canonical IDs without a policy entry: "Active tools are missing
//     effect capability policies: <a, b>."
//
// A nil policy list counts as an empty one.
func CheckToolSet(ts port.ToolSet) (map[string][]string, error) {
	if ts.CanonicalToolIDs == nil || ts.EffectCapabilities == nil {
		return nil, toolExecution("Tool set is missing its host effect capability policy.")
	}
	for name, id := range ts.CanonicalToolIDs {
		if canon.IsBlank(name) || canon.IsBlank(id) {
			return nil, toolExecution("Tool canonical id mapping is malformed.")
		}
	}
	defNames := make([]string, len(ts.Definitions))
	for i, d := range ts.Definitions {
		defNames[i] = d.Function.Name
	}
	slices.SortFunc(defNames, canon.CompareText)
	mapped := slices.SortedFunc(maps.Keys(ts.CanonicalToolIDs), canon.CompareText)
	if !slices.Equal(defNames, mapped) {
		return nil, toolExecution("Every active model tool must have exactly one canonical tool id mapping.")
	}
	mappedIDs := slices.SortedFunc(maps.Values(ts.CanonicalToolIDs), canon.CompareText)
	if len(slices.Compact(slices.Clone(mappedIDs))) != len(mappedIDs) {
		return nil, toolExecution("Active model tools must map one-to-one to canonical tool ids.")
	}
	policy := make(map[string][]string, len(ts.EffectCapabilities))
	for _, id := range slices.SortedFunc(maps.Keys(ts.EffectCapabilities), canon.CompareText) {
		if canon.IsBlank(id) {
			return nil, toolExecution("Tool effect capability policy is malformed.")
		}
		normalized := sortedUnique(ts.EffectCapabilities[id])
		if slices.ContainsFunc(normalized, func(c string) bool { return !IsCapability(c) }) {
			return nil, toolExecution("Unknown effect capability declared for " + id + ".")
		}
		if err := AssertCoreCapabilities(id, normalized); err != nil {
			return nil, toolExecution(err.Error())
		}
		if err := AssertExtensionCapabilities(id, normalized); err != nil {
			return nil, toolExecution(err.Error())
		}
		policy[id] = normalized
	}
	var missing []string
	for _, id := range mappedIDs {
		if _, ok := policy[id]; !ok {
			missing = append(missing, id)
		}
	}
	if len(missing) > 0 {
		return nil, toolExecution("Active tools are missing effect capability policies: " + strings.Join(missing, ", ") + ".")
	}
	return policy, nil
}
