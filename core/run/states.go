package run

import (
	"fmt"
	"slices"
)

// Run states (RUNTIME §9).
const (
	StateCreated         = "created"
	StatePreparing       = "preparing"
	StateResuming        = "resuming"
	StateInspecting      = "inspecting"
	StatePlanning        = "planning"
	StateExecuting       = "executing"
	StateValidating      = "validating"
	StateReviewing       = "reviewing"
	StateWaitingApproval = "waiting_approval"
	StateCompacting      = "compacting"
	StateCompleted       = "completed"
	StateFailed          = "failed"
	StateCancelled       = "cancelled"
	StatePaused          = "paused"
)

var (
	operational   = []string{StateInspecting, StatePlanning, StateExecuting, StateValidating, StateReviewing}
	interruptible = []string{StateWaitingApproval, StateCompacting, StatePaused, StateFailed, StateCancelled}
)

func join(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// transitions is the allowed-target table of RUNTIME §9.
var transitions = map[string][]string{
	StateCreated:         {StatePreparing, StateCancelled},
	StatePreparing:       {StateInspecting, StatePlanning, StateExecuting, StateReviewing, StateResuming, StateCompacting, StatePaused, StateFailed, StateCancelled},
	StateResuming:        {StateInspecting, StatePlanning, StateExecuting, StateValidating, StateReviewing, StatePaused, StateFailed, StateCancelled},
	StateInspecting:      join(operational, interruptible),
	StatePlanning:        join(operational, interruptible),
	StateExecuting:       join(operational, interruptible),
	StateValidating:      join(operational, interruptible),
	StateReviewing:       join(operational, []string{StateCompleted}, interruptible),
	StateWaitingApproval: join(operational, []string{StateCompacting, StatePaused, StateFailed, StateCancelled}),
	StateCompacting:      join(operational, []string{StateWaitingApproval, StateFailed, StateCancelled, StatePaused, StatePreparing}),
}

// States lists every run state in the order of RUNTIME §9.
func States() []string {
	return []string{StateCreated, StatePreparing, StateResuming, StateInspecting, StatePlanning, StateExecuting,
		StateValidating, StateReviewing, StateWaitingApproval, StateCompacting, StateCompleted, StateFailed,
		StateCancelled, StatePaused}
}

// IsTerminal reports whether state has no outgoing transitions: completed,
// failed, cancelled or paused.
func IsTerminal(state string) bool {
	switch state {
	case StateCompleted, StateFailed, StateCancelled, StatePaused:
		return true
	}
	return false
}

// CanTransition reports whether the state machine allows from → to. A
// transition to the current state is a no-op and is not "allowed" here.
func CanTransition(from, to string) bool {
	return slices.Contains(transitions[from], to)
}

// A Transition is one applied state change (RUNTIME §9). Sequence starts
// at 1 per execution segment; Timestamp is ISO-8601 from the run's clock.
type Transition struct {
	From      string `json:"from"`
	Reason    string `json:"reason"`
	Sequence  int    `json:"sequence"`
	Timestamp string `json:"timestamp"`
	To        string `json:"to"`
}

// An InvalidTransitionError is the original AiCoderInvalidStateTransitionError.
// Inside a run it ends the run PROVIDER_ERROR (RUNTIME §22.4).
type InvalidTransitionError struct{ From, To string }

func (e *InvalidTransitionError) Error() string {
	return fmt.Sprintf("Invalid AI Coder state transition: %s -> %s.", e.From, e.To)
}

// machine is the state machine of one execution segment. It is not safe for
// concurrent use; the session guards it.
type machine struct {
	state   string
	history []Transition
}

func newMachine() *machine { return &machine{state: StateCreated} }

// apply performs a transition. It returns (nil, nil) for a no-op.
func (m *machine) apply(to, reason, timestamp string) (*Transition, error) {
	if to == m.state {
		return nil, nil
	}
	if !CanTransition(m.state, to) {
		return nil, &InvalidTransitionError{From: m.state, To: to}
	}
	t := Transition{From: m.state, Reason: reason, Sequence: len(m.history) + 1, Timestamp: timestamp, To: to}
	m.history = append(m.history, t)
	m.state = to
	return &t, nil
}

// force moves to a terminal state whatever the table says (DECISIONS 13).
func (m *machine) force(to, reason, timestamp string) Transition {
	t := Transition{From: m.state, Reason: reason, Sequence: len(m.history) + 1, Timestamp: timestamp, To: to}
	m.history = append(m.history, t)
	m.state = to
	return t
}

// checkpointPhase maps a state to a checkpoint phase (RUNTIME §9).
func checkpointPhase(state string) string {
	switch state {
	case StatePlanning, StateExecuting, StateValidating, StateReviewing:
		return state
	case StatePreparing, StateResuming:
		return "preparing"
	}
	return "inspecting"
}

// phaseState maps a checkpoint phase back to a state (RUNTIME §9).
func phaseState(phase string) string {
	if phase == "preparing" {
		return StateInspecting
	}
	return phase
}
