package run

import (
	"github.com/galaxy-stack/conform/core/faults"
	"github.com/galaxy-stack/conform/core/port"
)

// runLoop is the turn loop of RUNTIME §11. It returns the final report of a
// completed run, or the error that ends it.
func (s *session) runLoop() (string, error) {
	if err := s.resumeFinalization(); err != nil {
		return "", err
	}
	for {
		for s.modelTurns < s.budget.MaxTurns {
			if err := s.checkControl(); err != nil {
				return "", err
			}
			if err := s.waitForApprovals(); err != nil {
				return "", err
			}
			if err := s.checkControl(); err != nil {
				return "", err
			}
			s.modelTurns++
			if err := s.refreshToolSet(s.ctx, true); err != nil {
				return "", err
			}
			roundSet := s.toolSet
			tools := roundSet.Definitions
			// Core fault: a finalization turn offers the round's tools.
			if s.fin.Active() && !faults.On(faults.FinalizationOffersTools) {
				tools = []port.ToolDefinition{}
			}
			messages, err := s.prepareRound(tools)
			if err != nil {
				return "", err
			}
			out, err := s.modelRound(messages, tools)
			if err != nil {
				return "", err
			}
			s.completeRound(out)
			if len(out.calls) > 0 {
				// Core fault: a finalization turn's tool calls are dispatched.
				if s.fin.Active() && !faults.On(faults.FinalizationDispatchesToolCall) {
					if err := s.finalizationToolCalls(out); err != nil {
						return "", err
					}
					continue
				}
				obs, err := s.runBatch(out.calls, roundSet)
				if err != nil {
					return "", err
				}
				if err := s.refreshToolSet(s.ctx, true); err != nil {
					return "", err
				}
				s.addInteraction(out.assistant, obs)
				if err := s.afterBatch(obs); err != nil {
					return "", err
				}
				continue
			}
			s.addInteraction(out.assistant, nil)
			if err := s.transition(StateReviewing, "The model proposed a final report; evaluate deterministic completion evidence."); err != nil {
				return "", err
			}
			done, err := s.tryComplete(out.content)
			if err != nil {
				return "", err
			}
			if done {
				return out.content, nil
			}
			s.fin.Leave()
		}
		if s.budgetFinalization() {
			continue
		}
		return "", newError(CodeMaxTurns, "AI Coder reached maxTurns=%d.", s.budget.MaxTurns)
	}
}
