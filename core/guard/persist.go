package guard

import (
	"errors"
	"fmt"
	"slices"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/faults"
)

// Export limits of the checkpoint's noProgress member (RUNTIME §21.1,
// CONTRACTS §11).
const (
	exportFamilyLimit = 128
	exportCycleLimit  = 12
)

// restoredEpisodeCap caps the restored episode count (RUNTIME §21.6). It is
// the literal 2 of the original, which equals the default
// maxNoProgressEpisodes; it is not the configured budget (DECISIONS 11).
const restoredEpisodeCap = 2

// Export returns the noProgress member of a checkpoint (RUNTIME §21.1).
// last is the run's most recent lastToolCalls record (nil when there is
// none); previousTool is recorded only while the repeat fingerprint still
// names that call on the current state version. Lists are sorted; host
// state versions and observation families keep the last 128 sorted
// entries; toolCycleSuffix takes the last 12 history entries and then keeps
// those stamped with the current state version.
func (g *Guard) Export(last *checkpoint.ToolCallRecord) *checkpoint.NoProgress {
	np := &checkpoint.NoProgress{
		Episodes:                   int64(g.episodes),
		FailedToolFamilies:         []checkpoint.FamilyCount{},
		HostStateVersions:          []checkpoint.HostStateVersion{},
		ObservationNudgeThresholds: slices.Clone(g.cfg.ObservationNudgeThresholds),
		ObservationFamilies:        []checkpoint.FamilyCount{},
		Policy:                     g.cfg.Policy,
		ToolCycleSuffix:            []checkpoint.CycleEntry{},
	}
	for _, k := range g.failedFamilies.sortedKeys() {
		np.FailedToolFamilies = append(np.FailedToolFamilies, checkpoint.FamilyCount{Count: g.failedFamilies.counts[k], Key: k})
	}
	for _, k := range lastN(sortedKeys(g.hostStateVersions), exportFamilyLimit) {
		np.HostStateVersions = append(np.HostStateVersions, checkpoint.HostStateVersion{Key: k, Value: g.hostStateVersions[k]})
	}
	for _, k := range lastN(sortedKeys(g.observations), exportFamilyLimit) {
		np.ObservationFamilies = append(np.ObservationFamilies, checkpoint.FamilyCount{Count: g.observations[k], Key: k})
	}
	if last != nil && g.previousFP == last.Name+":"+last.ArgumentsHash+":"+g.stateVersion {
		np.PreviousTool = &checkpoint.PreviousTool{ArgumentsHash: last.ArgumentsHash, Name: last.Name, Repetitions: g.repeated}
	}
	for _, e := range lastN(g.cycle, exportCycleLimit) {
		if e.stateVersion == g.stateVersion {
			np.ToolCycleSuffix = append(np.ToolCycleSuffix, checkpoint.CycleEntry{ArgumentsHash: e.argumentsHash, Name: e.name})
		}
	}
	return np
}

// Restore rebuilds the guard of a resumed segment from a verified checkpoint
// (RUNTIME §21.6). It must be called on a guard fresh from New, configured
// from the resuming run (checkpoint.CheckCompatibility has already compared
// the recorded policy and thresholds). It:
//
//   - replays the checkpoint's edits through the write-state histories,
//     collecting the calls whose write returned to an earlier state;
//   - replays its validations into the failure counters (pass clears the
//     id, fail increments "<id>:<fingerprint>") and sums max(0, count−2);
//   - restores failed tool families, host state versions and observation
//     families;
//   - sets episodes = min(2, max(recorded, cycling calls + repeated
//     validation episodes));
//   - sets the state version to the hash of {checkpoint: contentHash} and
//     re-stamps the cycle suffix and the previous repeat fingerprint with it.
//
// The recovery round, the last episode turn and the flagged calls start
// fresh. Old checkpoints without noProgress restore empty counters.
func (g *Guard) Restore(cp *checkpoint.Checkpoint) error {
	if cp == nil || cp.ContentHash == "" {
		return errors.New("guard: restore needs a checkpoint with a content hash")
	}
	if len(g.cycle) > 0 || g.previousFP != "" || len(g.writeHistory) > 0 {
		return errors.New("guard: restore needs a fresh guard")
	}
	cycling := map[string]bool{}
	for _, e := range cp.Edits {
		if g.recordWrite(e.Path, writeStateKey(string(e.BeforeKind), e.BeforeHash), writeStateKey(string(e.AfterKind), e.AfterHash)) {
			cycling[e.ToolCallID] = true
		}
	}
	for _, v := range cp.Validation {
		switch v.Status {
		case checkpoint.ValidationPassed:
			g.validationFails.deletePrefix(v.ID + ":")
		case checkpoint.ValidationFailed:
			g.validationFails.inc(v.ID + ":" + v.WorkspaceFingerprint)
		}
	}
	var repeatedValidation int64
	for _, n := range g.validationFails.counts {
		repeatedValidation += max(0, n-2)
	}
	sv, err := canon.Hash(map[string]string{"checkpoint": cp.ContentHash})
	if err != nil {
		return fmt.Errorf("guard: hash checkpoint %q: %w", cp.ContentHash, err)
	}
	g.stateVersion = sv
	np := cp.NoProgress
	var recorded int64
	if np != nil {
		recorded = np.Episodes
		for _, f := range np.FailedToolFamilies {
			// Core fault: failed tool families are not restored.
			if faults.On(faults.ResumeDropsFailedFamilies) {
				break
			}
			g.failedFamilies.set(f.Key, f.Count)
		}
		for _, h := range np.HostStateVersions {
			g.hostStateVersions[h.Key] = h.Value
		}
		for _, f := range np.ObservationFamilies {
			g.observations[f.Key] = f.Count
		}
		for _, e := range np.ToolCycleSuffix {
			if faults.On(faults.ResumeDropsCycleSuffix) {
				break
			}
			g.cycle = append(g.cycle, cycleEntry{argumentsHash: e.ArgumentsHash, name: e.Name, stateVersion: sv})
		}
		// Core fault: the identical-repeat count is not restored.
		if p := np.PreviousTool; p != nil && !faults.On(faults.ResumeDropsRepeatCount) {
			g.previousFP = p.Name + ":" + p.ArgumentsHash + ":" + sv
			g.repeated = p.Repetitions
		}
	}
	g.episodes = int(min(restoredEpisodeCap, max(recorded, int64(len(cycling))+repeatedValidation)))
	g.lastEpisodeTurn = -1
	g.recoveryUsed = false
	return nil
}
