package run

import (
	"github.com/galaxy-stack/conform/core/faults"
	"github.com/galaxy-stack/conform/core/guard"
)

// finalReportPending is the candidate report of a readiness check (RUNTIME
// §19.2).
const finalReportPending = "Final report pending."

// shouldAttemptFinalization is RUNTIME §19.1: an authored write, a counted
// no-progress episode, or configured research completion.
func (s *session) shouldAttemptFinalization() bool {
	research := s.req.Completion != nil && s.req.Completion.Research != nil
	return s.guard.ShouldAttemptFinalization(len(s.ev.writes), research)
}

// readinessRequirements are the gate requirements of RUNTIME §19.2: the
// model-evidence requirements (no persistence, ledger or trace duty) without
// citations; requireValidation keeps its request default.
func (s *session) readinessRequirements() Requirements {
	r := s.requirements(true)
	if r.Research != nil {
		rr := *r.Research
		rr.RequireCitations = false
		r.Research = &rr
	}
	return r
}

// ready is isReadyForFinalResponse (RUNTIME §19.2).
func (s *session) ready() (bool, error) {
	req := s.readinessRequirements()
	gate := func(fp *string) bool { return Evaluate(req, s.snapshot(finalReportPending, false, fp)).OK }
	capture := func() (string, error) { return s.captureFingerprint(nil, nil) }
	return guard.Ready(s.guardEvidence(), gate, capture)
}

// enterFinalizationIfReady enters evidence-ready finalization mode when the
// evidence passes the readiness gate (RUNTIME §19.3).
func (s *session) enterFinalizationIfReady() error {
	ok, err := s.ready()
	if err != nil || !ok {
		return err
	}
	if fb, entered := s.fin.Enter(); entered {
		s.win.ProjectForFinalization()
		s.addFeedback(fb)
	}
	return nil
}

// resumeFinalization enters finalization before the first turn of a resumed
// run whose evidence is ready (RUNTIME §11, §19.1).
func (s *session) resumeFinalization() error {
	if !s.resume || !s.shouldAttemptFinalization() || faults.On(faults.ResumeSkipsFinalization) {
		return nil
	}
	return s.enterFinalizationIfReady()
}

// finalizationToolCalls answers tool calls in a tool-free finalization turn
// (RUNTIME §19.3): nothing is dispatched, counted or marked seen, the
// assistant message stays out of the context, and the turn counts as a
// completion rejection.
func (s *session) finalizationToolCalls(out *roundOutput) error {
	s.completionRejections++
	r := s.fin.RejectToolCalls(len(out.calls), s.completionRejections, s.budget.MaxCompletionRejections)
	research := s.researchEvidence(out.content)
	s.emitEvent(Event{Type: EventCompletionRejected, Candidate: out.content, Issues: []string{r.Issue}, ResearchEvidence: &research})
	s.win.ProjectForFinalization()
	s.addFeedback(r.Feedback)
	if r.Fatal {
		return newError(CodeInvalidModelStream, "%s", r.Message)
	}
	return nil
}

// budgetFinalization decides the budget finalization turn when maxTurns is
// exhausted (RUNTIME §19.4, DECISIONS 3 and 19): once per segment, raising
// the live maxTurns by one.
func (s *session) budgetFinalization() bool {
	t, ok := s.fin.BudgetTurn(s.shouldAttemptFinalization(), s.modelTurns)
	if !ok {
		return false
	}
	s.budget.MaxTurns = t.MaxTurns
	if t.Feedback != "" {
		s.win.ProjectForFinalization()
		s.addFeedback(t.Feedback)
	}
	s.tracePolicy(t.Policy)
	return true
}
