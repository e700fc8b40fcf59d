// Package guard is the run controller's no-progress guards and tool-free
// finalization (RUNTIME §17–§19): a pure, deterministic state machine that
// the controller feeds with each call and result and queries after each
// batch. It does no I/O, starts no goroutines and reads no clock; workspace
// captures and gate evaluations are values or callbacks the controller
// passes in.
//
// # Call order
//
// Per execution segment:
//
//	g, _ := guard.New(cfg)           // or, resuming: New, then g.Restore(cp)
//	var fin guard.Finalizer
//	if resume && g.ShouldAttemptFinalization(len(writes), research) {
//		if ok, err := guard.Ready(ev, gate, capture); ok { fb, _ := fin.Enter(); addFeedback(fb) }
//	}
//
// Per turn (modelTurns already incremented; tools = none while fin.Active()):
//
//	tool calls while fin.Active():
//		rejections++; r := fin.RejectToolCalls(len(calls), rejections, max)
//		emit completion_rejected {issues: [r.Issue]}; project; addFeedback(r.Feedback)
//		if r.Fatal { fail INVALID_MODEL_STREAM r.Message }; continue
//	for each call of the batch (after preflight and RUNTIME §15 steps 1–3):
//		d := g.BeforeDispatch(call)        // steps 4–5, 8–9
//		addFeedback(d.Feedback...); trace policy_decision d.Policy...
//		if d.Block != nil { answer d.Block.Result(call); next call }
//		... dispatch, result contract, bounding, outcome (steps 10–15),
//		... capture FailureState for a failed write-capable call (best effort),
//		... apply effects (step 17) ...
//		rep := g.AfterResult(call, result, evidenceAfterEffects) // steps 16, 18
//		addFeedback(rep.Feedback...)
//	after the batch (registry refresh, interaction recorded):
//		switch v := g.AfterBatch(observations); v.Action {
//		case guard.Recover: addFeedback(v.Feedback); trace policy_decision *v.Policy
//		case guard.Pause:   pause intent v.PauseReason; PAUSED → pause checkpoint
//		}
//		if g.FinalizationCheckAllowed() && g.ShouldAttemptFinalization(...) && Ready(...) { fin.Enter() }
//	a text answer: gate; if rejected: fin.Leave()
//
// When the loop runs out of turns:
//
//	if t, ok := fin.BudgetTurn(g.ShouldAttemptFinalization(...), modelTurns); ok {
//		maxTurns = t.MaxTurns; addFeedback(t.Feedback) if non-empty; trace t.Policy; continue
//	}
//	fail MAX_TURNS
//
// Every checkpoint records g.Export(lastToolCallRecord) as its noProgress
// member.
//
// # State version
//
// The state version starts as the stable JSON of {runId, state: "created"},
// becomes the hash of {checkpoint: contentHash} on resume, and after each
// dispatched call with a state effect the hash of the host state versions,
// plan, semantic evidence, criteria, inspected paths, research and writes
// (RUNTIME §17). Only durable authored progress on an unflagged call resets
// the repeat count and the episodes (DECISIONS 4). Hashes are conform's own
// (SHA-256 over JCS); only their equality matters.
//
// # Texts
//
// Feedback texts are those of RUNTIME §35 Appendix A, as the controller
// keeps its other Appendix A texts; the budget finalization text is
// conform's own (DECISIONS 19). Synthetic NO_PROGRESS results, incident
// details and strategies are exact (RUNTIME §8.2, §18).
//
// # Coverage
//
// testdata/coverage.md maps every rule of RUNTIME §17–§19, the guard parts
// of §21 and §33, and the relevant §36 bullets to the spec that covers it,
// or says why it is not ported here.
package guard
