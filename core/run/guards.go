package run

import (
	"slices"

	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/guard"
	"github.com/galaxy-stack/conform/core/port"
)

// guardConfig is the no-progress part of the normalized budget.
func guardConfig(runID string, b Budget) guard.Config {
	return guard.Config{RunID: runID, Policy: checkpoint.NoProgressPolicy(b.NoProgressPolicy),
		ObservationNudgeThresholds: slices.Clone(b.ObservationNudgeThresholds), MaxObservationRepeats: b.MaxObservationRepeats,
		MaxRepeatedToolRequests: b.MaxRepeatedToolRequests, MaxNoProgressEpisodes: b.MaxNoProgressEpisodes}
}

// guardCallOf is the call as the guards see it.
func (s *session) guardCallOf(c *callState) guard.Call {
	return guard.Call{Turn: s.modelTurns, ToolCallID: c.call.ToolCallID, Name: c.call.Name, CanonicalID: c.expected,
		ArgumentsHash: c.argumentsHash, Arguments: c.call.Arguments}
}

// tracePolicy traces one policy_decision event (RUNTIME §26.3).
func (s *session) tracePolicy(p guard.PolicyDecision) {
	s.trace.emit(s.ctx, port.TracePolicyDecision, p)
}

// guardCall runs the no-progress guards before a dispatch (RUNTIME §15 steps
// 4–5 and 8–9, §18.1–§18.4): the guards' feedback goes to the context and
// their decisions to the trace. A non-nil result blocks the call with that
// synthetic NO_PROGRESS observation.
func (s *session) guardCall(c *callState) *port.ToolResult {
	d := s.guard.BeforeDispatch(s.guardCallOf(c))
	for _, fb := range d.Feedback {
		s.addFeedback(fb)
	}
	for _, p := range d.Policy {
		s.tracePolicy(p)
	}
	if d.Block == nil {
		return nil
	}
	res := d.Block.Result(s.guardCallOf(c))
	return &res
}

// guardEvidence is the run evidence the state version is computed from.
func (s *session) guardEvidence() guard.Evidence {
	return guard.Evidence{Plan: s.ev.plan, Criteria: s.ev.criteria, InspectedPaths: s.ev.inspectedPaths(), Research: s.ev.research,
		Writes: s.ev.writes, Validations: s.ev.validations, DiffReview: s.ev.diffReview}
}

// afterResult is the post-dispatch accounting of RUNTIME §15 steps 16 and 18
// once the result's effects were applied: failed mutation families (with a
// best-effort workspace capture, DECISIONS 5), write-hash cycles, repeated
// validation failures, observation families, the state version and the
// counter resets (§17–§18.5).
func (s *session) afterResult(c *callState) {
	r := c.result
	gr := guard.Result{OK: r.OK, WriteCapable: c.writeCapable, Writes: c.recordedWrites, Fingerprint: c.fingerprint}
	if r.EffectsAuthority == "host" {
		gr.HostEffects = r.Effects
	}
	if !r.OK && c.writeCapable && s.deps.Verifier != nil {
		if fp, err := s.captureFingerprint(nil, nil); err == nil {
			gr.FailureState = fp
		}
	}
	rep := s.guard.AfterResult(s.guardCallOf(c), gr, s.guardEvidence())
	for _, fb := range rep.Feedback {
		s.addFeedback(fb)
	}
}

// guardObservations are a batch's observations for the recovery feedback.
func guardObservations(obs []observation) []guard.Observation {
	out := make([]guard.Observation, len(obs))
	for i, o := range obs {
		out[i] = guard.Observation{Name: o.Call.Name, Summary: o.Summary, Failed: o.Failed}
	}
	return out
}

// afterBatch is the no-progress budget check and the finalization readiness
// check after a batch (RUNTIME §11 step 10, §18.6, §19): one recovery round
// per segment, then a pause; otherwise evidence-ready finalization.
func (s *session) afterBatch(obs []observation) error {
	v := s.guard.AfterBatch(guardObservations(obs))
	switch v.Action {
	case guard.Recover:
		s.addFeedback(v.Feedback)
		if v.Policy != nil {
			s.tracePolicy(*v.Policy)
		}
	case guard.Pause:
		s.requestControl(CodePaused, v.PauseReason)
		return &Error{Code: CodePaused, Message: v.PauseReason}
	}
	if !s.guard.FinalizationCheckAllowed() || !s.shouldAttemptFinalization() {
		return nil
	}
	return s.enterFinalizationIfReady()
}

// restoreNoProgress restores the no-progress counters of a verified
// checkpoint (RUNTIME §21.6, DECISIONS 11).
func (s *session) restoreNoProgress(cp *checkpoint.Checkpoint) error {
	g, err := guard.New(guardConfig(s.runID, s.budget))
	if err != nil {
		return &Error{Code: CodeProviderError, Message: err.Error()}
	}
	if err := g.Restore(cp); err != nil {
		return newError(CodeCheckpointIncompatible, "%s", err.Error())
	}
	s.guard = g
	return nil
}

// noProgressSnapshot is the checkpoint's noProgress member (RUNTIME §21.1).
func (s *session) noProgressSnapshot() *checkpoint.NoProgress {
	var last *checkpoint.ToolCallRecord
	if n := len(s.ev.lastToolCalls); n > 0 {
		rec := s.ev.lastToolCalls[n-1]
		last = &rec
	}
	return s.guard.Export(last)
}
