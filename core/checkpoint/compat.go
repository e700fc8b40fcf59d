package checkpoint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/galaxy-stack/conform/core/canon"
)

// CodeCheckpointIncompatible is the runtime error code of a refused resume
// (RUNTIME §21.4, DECISIONS 55).
const CodeCheckpointIncompatible = "CHECKPOINT_INCOMPATIBLE"

// ResumeTarget is what a resuming run would continue with; a checkpoint is
// compatible only when it recorded exactly these values (CONTRACTS §9.8).
type ResumeTarget struct {
	RunID                  string
	TaskID                 string
	WorkspaceRoot          string
	ModelIdentity          string // the identity key (RUNTIME §33.5)
	PromptHash             string
	PromptVersion          string
	RegistrySnapshotHash   string
	CapabilitiesHash       string // see [CapabilitiesHash]
	EffectCapabilitiesHash string
	SystemPromptHash       string
	TaskContractHash       string
	NoProgressPolicy       NoProgressPolicy
	// ObservationNudgeThresholds are the run's thresholds; they are
	// normalized (sorted, deduplicated) before comparison (DECISIONS 25).
	ObservationNudgeThresholds []int64
}

// An IncompatibleError lists what differs between a checkpoint and the
// resuming run, in the order of RUNTIME §21.4.
type IncompatibleError struct {
	Mismatches []string
}

// Error returns "Checkpoint is incompatible with this run: <items>." with
// the items joined by ", ".
func (e *IncompatibleError) Error() string {
	return "Checkpoint is incompatible with this run: " + strings.Join(e.Mismatches, ", ") + "."
}

// Code returns [CodeCheckpointIncompatible].
func (e *IncompatibleError) Code() string { return CodeCheckpointIncompatible }

// CheckCompatibility returns nil if cp may be resumed by target, otherwise
// an *[IncompatibleError] naming, in order: runId, taskId, workspaceRoot,
// modelIdentity, promptHash, promptVersion, registrySnapshotHash,
// capabilitiesHash, effectCapabilitiesHash, systemPromptHash,
// taskContractHash, then "noProgressPolicy (<recorded> vs <current>)" and
// "observationNudgeThresholds (<a,b> vs <c,d>)" when the checkpoint
// recorded them and they differ. A checkpoint without the no-progress
// fields (an older one) is not checked for them. Capability probe times
// never take part: [CapabilitiesHash] leaves them out.
func CheckCompatibility(cp *Checkpoint, target ResumeTarget) error {
	var m []string
	check := func(name string, equal bool) {
		if !equal {
			m = append(m, name)
		}
	}
	c := cp.Compatibility
	check("runId", cp.RunID == target.RunID)
	check("taskId", cp.TaskID == target.TaskID)
	check("workspaceRoot", cp.Workspace.Root != nil && *cp.Workspace.Root == target.WorkspaceRoot)
	check("modelIdentity", c.ModelIdentity == target.ModelIdentity)
	check("promptHash", c.PromptHash == target.PromptHash)
	check("promptVersion", c.PromptVersion == target.PromptVersion)
	check("registrySnapshotHash", c.RegistrySnapshotHash == target.RegistrySnapshotHash)
	check("capabilitiesHash", c.CapabilitiesHash == target.CapabilitiesHash)
	check("effectCapabilitiesHash", c.EffectCapabilitiesHash == target.EffectCapabilitiesHash)
	check("systemPromptHash", c.SystemPromptHash == target.SystemPromptHash)
	check("taskContractHash", c.TaskContractHash == target.TaskContractHash)
	if np := cp.NoProgress; np != nil {
		if np.Policy != "" && np.Policy != target.NoProgressPolicy {
			m = append(m, fmt.Sprintf("noProgressPolicy (%s vs %s)", np.Policy, target.NoProgressPolicy))
		}
		if np.ObservationNudgeThresholds != nil {
			recorded := NormalizeThresholds(np.ObservationNudgeThresholds)
			current := NormalizeThresholds(target.ObservationNudgeThresholds)
			if !slices.Equal(recorded, current) {
				m = append(m, fmt.Sprintf("observationNudgeThresholds (%s vs %s)", joinInts(recorded), joinInts(current)))
			}
		}
	}
	if len(m) > 0 {
		return &IncompatibleError{Mismatches: m}
	}
	return nil
}

// NormalizeThresholds returns the thresholds sorted ascending without
// duplicates, as the runtime normalizes its budget (RUNTIME §5).
func NormalizeThresholds(t []int64) []int64 {
	out := slices.Clone(t)
	slices.Sort(out)
	return slices.Compact(out)
}

func joinInts(v []int64) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = fmt.Sprint(n)
	}
	return strings.Join(s, ",")
}

// CapabilitiesHash returns the hash recorded as compatibility
// capabilitiesHash: the canonical hash of the model capabilities
// (CONTRACTS §13.3) with each evidence item reduced to {source, verified}
// (CONTRACTS §9.8, DECISIONS 33). The probe time (observedAt) and anything
// else in an evidence item is left out, so a fresh probe of the same model
// resumes (seed matrix item 18) while a change of source or verification,
// or of any capability, does not. capabilities is any JSON-marshalable
// value (a struct, a map, json.RawMessage).
func CapabilitiesHash(capabilities any) (string, error) {
	snap, err := capabilitiesSnapshot(capabilities)
	if err != nil {
		return "", err
	}
	return canon.Hash(snap)
}

// capabilitiesSnapshot reduces the evidence items of capabilities.
func capabilitiesSnapshot(capabilities any) (any, error) {
	b, err := canon.Marshal(capabilities)
	if err != nil {
		return nil, err
	}
	tree, err := canon.Parse(b)
	if err != nil {
		return nil, err
	}
	obj, ok := tree.(canon.Object)
	if !ok {
		return tree, nil
	}
	out := make(canon.Object, len(obj))
	for i, m := range obj {
		if items, isArr := m.Value.([]any); m.Key == "evidence" && isArr {
			reduced := make([]any, len(items))
			for j, item := range items {
				r := canon.Object{}
				for _, key := range []string{"source", "verified"} {
					if v, ok := member(item, key); ok {
						r = append(r, canon.Member{Key: key, Value: v})
					}
				}
				reduced[j] = r
			}
			m.Value = reduced
		}
		out[i] = m
	}
	return out, nil
}

// EffectCapabilitiesHash returns the hash recorded as compatibility
// effectCapabilitiesHash: the canonical hash of the tool set's effect
// capabilities with each list deduplicated and sorted (CONTRACTS §9.8,
// DECISIONS 33). Map keys are sorted by canonical JSON.
func EffectCapabilitiesHash(effectCapabilities map[string][]string) (string, error) {
	norm := make(map[string][]string, len(effectCapabilities))
	for id, caps := range effectCapabilities {
		c := slices.Clone(caps)
		canon.SortStrings(c)
		norm[id] = orEmpty(slices.Compact(c))
	}
	return canon.Hash(norm)
}
