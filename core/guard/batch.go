package guard

import "github.com/galaxy-stack/conform/core/canon"

// An Observation is one outcome of a batch as the model sees it; AfterBatch
// lists the failed ones in the recovery feedback.
type Observation struct {
	Name    string
	Summary string
	Failed  bool
}

// A BatchAction is what the controller does after a batch.
type BatchAction int

// The batch actions of RUNTIME §18.6.
const (
	// Continue: the budget is not exhausted; go on with the finalization
	// readiness check (unless the recovery round was used) and the next turn.
	Continue BatchAction = iota
	// Recover: add Verdict.Feedback, trace Verdict.Policy and run one more
	// model round (the single recovery round of the segment).
	Recover
	// Pause: set a pause intent with Verdict.PauseReason and end the run
	// paused with a pause checkpoint (RUNTIME §22.3).
	Pause
)

// A Verdict is the result of the no-progress budget check after a batch.
type Verdict struct {
	Action      BatchAction
	Feedback    string
	Policy      *PolicyDecision
	PauseReason string
}

// AfterBatch is the no-progress budget check of RUNTIME §18.6, run after
// each batch once its observations were added to the context. When the
// episodes reach maxNoProgressEpisodes, the first time in the segment it
// grants the recovery round (feedback listing the failed observations as
// "<name>: <first 160 UTF-16 units of the summary>"); any later time it
// pauses the run.
func (g *Guard) AfterBatch(obs []Observation) Verdict {
	if g.episodes < g.cfg.MaxNoProgressEpisodes {
		return Verdict{Action: Continue}
	}
	if g.recoveryUsed {
		return Verdict{Action: Pause, PauseReason: PauseReasonNoProgressEpisodes}
	}
	g.recoveryUsed = true
	var failed []string
	for _, o := range obs {
		if o.Failed {
			failed = append(failed, o.Name+": "+canon.CutUTF16(o.Summary, 160))
		}
	}
	return Verdict{Action: Recover, Feedback: recoveryFeedback(g.cfg.MaxNoProgressEpisodes, failed),
		Policy: &PolicyDecision{Action: ActionNoProgressRecoveryTurn}}
}

// ShouldAttemptFinalization is RUNTIME §19.1: there is at least one
// authored write, or an episode was counted, or research completion is
// configured.
func (g *Guard) ShouldAttemptFinalization(authoredWrites int, researchConfigured bool) bool {
	return authoredWrites > 0 || g.episodes > 0 || researchConfigured
}

// FinalizationCheckAllowed reports whether the post-batch finalization
// readiness check may run: not once the recovery round was used in this
// segment (RUNTIME §18.6). A final report is still evaluated normally.
func (g *Guard) FinalizationCheckAllowed() bool { return !g.recoveryUsed }
