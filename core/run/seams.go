package run

import (
	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/port"
)

// The methods in this file are the seams of part 2 of the controller
// (issue 7: no-progress guards, finalization, context pressure). Each is
// called at the point of RUNTIME §11 where the original runtime does that
// work; here each is the behaviour of a runtime without that feature.

// mandatoryState returns the mandatory state document placed in the context
// before each request (RUNTIME §28); "" adds none.
func (s *session) mandatoryState() string { return "" }

// prepareRound is the context step before each model request (RUNTIME §11
// steps 6–7: context preparation, provider token count, forced compaction).
// It returns the request messages.
func (s *session) prepareRound(tools any) ([]port.Message, error) {
	_ = tools
	return s.conv.messages(), nil
}

// guardCall runs the no-progress guards before a dispatch (RUNTIME §15 steps
// 8–9, §18.2–§18.4). A non-nil result blocks the call with that synthetic
// NO_PROGRESS observation.
func (s *session) guardCall(c *callState) *syntheticResult { return nil }

// afterResult is the post-dispatch accounting of RUNTIME §15 steps 16 and 18
// (failed mutation families, observation families, state version, counter
// resets, §17–§18.3).
func (s *session) afterResult(c *callState) {}

// afterBatch is the no-progress budget check and finalization readiness of
// RUNTIME §14 (last paragraph), §18.6 and §19.
func (s *session) afterBatch(obs []observation) error { return nil }

// afterEffects receives what effect application found for the guards of
// RUNTIME §18.5 (write-hash cycles, repeated validation failures).
func (s *session) afterEffects(c *callState, returnedPaths, repeatedValidations []string) {}

// resumeFinalization enters finalization before the first turn of a resumed
// run whose evidence is ready (RUNTIME §11, §19.1).
func (s *session) resumeFinalization() error { return nil }

// finalizationToolCalls handles tool calls in a tool-free finalization turn
// (RUNTIME §19.3). Finalization mode is never entered without part 2.
func (s *session) finalizationToolCalls(out *roundOutput) error { return nil }

// budgetFinalization decides whether to run the budget finalization turn
// when maxTurns is exhausted (RUNTIME §19.4, DECISIONS 3).
func (s *session) budgetFinalization() bool { return false }

// restoreNoProgress restores the no-progress counters from a checkpoint
// (RUNTIME §21.6, DECISIONS 11).
func (s *session) restoreNoProgress(np *checkpoint.NoProgress) {}
