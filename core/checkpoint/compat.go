package checkpoint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/galaxy-stack/conform/core/faults"
	"github.com/galaxy-stack/conform/core/prompt"
)

// CodeCheckpointIncompatible is the runtime error code of a refused resume
// (RUNTIME §21.4, DECISIONS 55).
const CodeCheckpointIncompatible = "CHECKPOINT_INCOMPATIBLE"

// ResumeTarget is what a resuming run would continue with; a checkpoint is
// compatible only when it recorded exactly these values (CONTRACTS §9.8).
type ResumeTarget struct {
	RunID         string
	TaskID        string
	WorkspaceRoot string
	// Integrity holds the run's prompt-side values: its ModelIdentity is
	// the identity key (RUNTIME §33.5), its CapabilitiesHash leaves probe
	// times out (prompt.CapabilitiesHash).
	prompt.Integrity
	NoProgressPolicy NoProgressPolicy
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
// never take part: the capabilities hash leaves them out
// (prompt.CapabilitiesHash).
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
	promptChangeIgnored := faults.On(faults.ResumeIgnoresPromptChange)
	check("promptHash", c.PromptHash == target.PromptHash || promptChangeIgnored)
	check("promptVersion", c.PromptVersion == target.PromptVersion)
	check("registrySnapshotHash", c.RegistrySnapshotHash == target.RegistrySnapshotHash)
	// Core fault: a changed capability probe is not compared.
	check("capabilitiesHash", c.CapabilitiesHash == target.CapabilitiesHash || faults.On(faults.ResumeIgnoresCapabilitiesHash))
	check("effectCapabilitiesHash", c.EffectCapabilitiesHash == target.EffectCapabilitiesHash)
	check("systemPromptHash", c.SystemPromptHash == target.SystemPromptHash || promptChangeIgnored)
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
