package guard

import "fmt"

// Finalization constants (RUNTIME §19.3, §28).
const (
	// IssueFinalizationToolCallsIgnored prefixes the completion_rejected
	// issue of tool calls in a tool-free turn; it is not a gate issue code.
	IssueFinalizationToolCallsIgnored = "FINALIZATION_TOOL_CALLS_IGNORED"
	// PhaseFinalizing is the mandatory state phase while finalizing.
	PhaseFinalizing = "finalizing"
	// NextActionFinalizing is the mandatory state nextAction while finalizing.
	NextActionFinalizing = "Return the user-facing final report without requesting tools or further work."
	// CodeInvalidModelStream is the run error of too many ignored calls.
	CodeInvalidModelStream = "INVALID_MODEL_STREAM"
)

// A Finalizer is the tool-free finalization state of one execution segment
// (RUNTIME §19.3–§19.4): whether finalization mode is on and whether the
// budget finalization turn was used. Neither survives a resume; a resumed
// run derives the mode again before its first request (RUNTIME §11). Its
// zero value is off.
type Finalizer struct {
	active          bool
	budgetAttempted bool
}

// Active reports whether finalization mode is on: the round is sent with an
// empty tool list and the mandatory state shows PhaseFinalizing and
// NextActionFinalizing.
func (f *Finalizer) Active() bool { return f.active }

// Enter turns evidence-ready finalization mode on (RUNTIME §19.3). It is
// idempotent: entered is false when the mode was already on. When entered,
// the controller projects the context for finalization and adds feedback
// (FinalizationFeedback).
func (f *Finalizer) Enter() (feedback string, entered bool) {
	if f.active {
		return "", false
	}
	f.active = true
	return FinalizationFeedback, true
}

// Leave turns finalization mode off after the completion gate rejected a
// final report in it; tools come back next turn.
func (f *Finalizer) Leave() { f.active = false }

// A BudgetTurn is the budget finalization turn granted when the loop ran
// out of turns (RUNTIME §19.4, DECISIONS 3).
type BudgetTurn struct {
	// MaxTurns is the raised live limit, modelTurns + 1.
	MaxTurns int
	// Feedback is BudgetFinalizationFeedback when the mode was entered now,
	// "" when it was already on (entering is idempotent).
	Feedback string
	// Policy is the policy_decision payload to trace.
	Policy PolicyDecision
}

// BudgetTurn decides the budget finalization turn when modelTurns reached
// maxTurns: granted once per segment and only when shouldAttempt (RUNTIME
// §19.1) holds; otherwise ok is false and the run fails MAX_TURNS with the
// (possibly raised) limit. Granting turns finalization mode on whether or
// not the evidence is complete; the completion gate still decides.
func (f *Finalizer) BudgetTurn(shouldAttempt bool, modelTurns int) (turn BudgetTurn, ok bool) {
	if f.budgetAttempted || !shouldAttempt {
		return BudgetTurn{}, false
	}
	f.budgetAttempted = true
	turn = BudgetTurn{MaxTurns: modelTurns + 1, Policy: PolicyDecision{Action: ActionBudgetFinalizationTurn, MaxTurns: modelTurns + 1}}
	if !f.active {
		f.active = true
		turn.Feedback = BudgetFinalizationFeedback
	}
	return turn, true
}

// A Rejection is the answer to tool calls in a tool-free finalization turn
// (RUNTIME §19.3). None of the calls is dispatched, counted or marked seen,
// and the assistant message is not added to the context.
type Rejection struct {
	// Issue is the single completion_rejected issue.
	Issue string
	// Feedback is the finalization retry feedback (Appendix A.2), added
	// after projecting the context for finalization again.
	Feedback string
	// Fatal reports that the rejection budget is spent: the run fails with
	// CodeInvalidModelStream and Message.
	Fatal   bool
	Message string
}

// RejectToolCalls answers n tool calls in a finalization turn. rejections
// is the run's completion rejection count after the controller incremented
// it for this turn; the mode stays on unless the result is fatal.
func (f *Finalizer) RejectToolCalls(n, rejections, maxRejections int) Rejection {
	issue := fmt.Sprintf("%s: Model requested %d tool call(s) during a tool-free finalization turn; none were dispatched.", IssueFinalizationToolCallsIgnored, n)
	r := Rejection{Issue: issue, Feedback: finalizationRetryFeedback(issue)}
	if rejections >= maxRejections {
		r.Fatal = true
		r.Message = fmt.Sprintf("Model requested tool calls during tool-free finalization %d times.", rejections)
	}
	return r
}

// A Gate evaluates the completion gate for readiness with the final report
// "Final report pending.", finalReportStored false and the given final
// workspace fingerprint (nil is null), under the readiness requirements of
// RUNTIME §19.2: the run's requirements with research.requireCitations,
// requireFinalReportPersistence, requireTokenLedger and requireTrace false
// and requireValidation = completion.requireValidation ?? (mode ==
// "validate_only"). It reports whether the gate passed.
type Gate func(finalFingerprint *string) bool

// Ready is isReadyForFinalResponse (RUNTIME §19.2): the gate must pass with
// the provisional fingerprint (diff review's, else the last validation's,
// else the last write's, else null); then, when any write, validation or
// diff review exists, with a fresh capture, else with null. A capture error
// is returned unchanged (the controller's capture already fails the run
// with TOOL_EXECUTION).
func Ready(ev Evidence, gate Gate, capture func() (string, error)) (bool, error) {
	if !gate(ProvisionalFingerprint(ev)) {
		return false, nil
	}
	if len(ev.Writes) == 0 && len(ev.Validations) == 0 && ev.DiffReview == nil {
		return gate(nil), nil
	}
	fp, err := capture()
	if err != nil {
		return false, err
	}
	return gate(&fp), nil
}

// ProvisionalFingerprint is step 1 of RUNTIME §19.2: the diff review's
// fingerprint, else the last validation's, else the last write's, else nil.
func ProvisionalFingerprint(ev Evidence) *string {
	var fp string
	switch {
	case ev.DiffReview != nil:
		fp = ev.DiffReview.WorkspaceFingerprint
	case len(ev.Validations) > 0:
		fp = ev.Validations[len(ev.Validations)-1].WorkspaceFingerprint
	case len(ev.Writes) > 0:
		fp = ev.Writes[len(ev.Writes)-1].WorkspaceFingerprint
	default:
		return nil
	}
	return &fp
}
