package run

import "slices"

func (s *session) pendingCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.pending)
}

func (s *session) isPending(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.ContainsFunc(s.pending, func(p pendingApproval) bool { return p.RequestID == id })
}

// resolveApproval is called from any goroutine (RUNTIME §23.3). It removes
// the pending entry at once and queues the decision for the run's goroutine,
// which records it when it next waits or starts a turn.
func (s *session) resolveApproval(requestID, decision string) bool {
	if decision != DecisionGranted && decision != DecisionDenied {
		return false
	}
	s.mu.Lock()
	i := slices.IndexFunc(s.pending, func(p pendingApproval) bool { return p.RequestID == requestID })
	if i < 0 || IsTerminal(s.sm.state) {
		s.mu.Unlock()
		return false
	}
	entry := s.pending[i]
	s.pending = slices.Delete(s.pending, i, i+1)
	s.resolutions = append(s.resolutions, resolution{entry: entry, decision: decision})
	s.mu.Unlock()
	select {
	case s.approvalGate <- struct{}{}:
	default:
	}
	return true
}

// drainResolutions records queued approval decisions: the approval record,
// the feedback and, when none remain, the return transition.
func (s *session) drainResolutions() error {
	s.mu.Lock()
	queued := s.resolutions
	s.resolutions = nil
	s.mu.Unlock()
	for _, r := range queued {
		s.ev.approvals = append(s.ev.approvals, r.decision+":"+r.entry.RequestID+":"+r.entry.ToolName+":"+r.entry.ToolCallID)
		s.addFeedback(approvalFeedback(r.entry.RequestID, r.decision, r.entry.ToolName))
		if s.pendingCount() == 0 && s.currentState() == StateWaitingApproval {
			if err := s.transition(r.entry.ReturnState, "Approval "+r.entry.RequestID+" was "+r.decision+"."); err != nil {
				return err
			}
		}
	}
	return nil
}

// waitForApprovals blocks at the top of a turn while approvals are pending
// (RUNTIME §23.2); pause, cancel and the deadline end the wait.
func (s *session) waitForApprovals() error {
	for {
		if err := s.drainResolutions(); err != nil {
			return err
		}
		if s.pendingCount() == 0 {
			return nil
		}
		if err := s.checkControl(); err != nil {
			return err
		}
		if err := s.transition(StateWaitingApproval, "Wait for explicit host approval decisions."); err != nil {
			return err
		}
		select {
		case <-s.approvalGate:
		case <-s.ctx.Done():
			return s.abortReason()
		}
	}
}
