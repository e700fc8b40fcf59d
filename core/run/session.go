package run

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/faults"
	"github.com/galaxy-stack/conform/core/guard"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/prompt"
	"github.com/galaxy-stack/conform/core/window"
)

// session is one execution segment of a run: everything between a launch
// (start or resume) and its result. Its fields are owned by the run's
// goroutine except those guarded by mu.
type session struct {
	deps        Deps
	req         Request
	budget      Budget
	resume      bool
	runID       string
	executionID string
	deadline    int64

	ctx    context.Context
	cancel context.CancelCauseFunc

	mu           sync.Mutex // guards intent, pending, resolutions, sm state reads
	intent       *Error
	pending      []pendingApproval
	resolutions  []resolution
	approvalGate chan struct{}
	sm           *machine
	stopTimer    func() bool

	trace     *tracer
	toolSet   *port.ToolSet
	integrity *prompt.Integrity
	// verifiedEffects is the last host effect policy whose hash matched
	// integrity's (valid when effectsVerified): an equal policy has the
	// same hash, so it is not hashed again.
	verifiedEffects map[string][]string
	effectsVerified bool
	caps            port.ModelCapabilities
	prompt          prompt.Snapshot
	win             *window.Manager
	prepared        window.Prepared
	guard           *guard.Guard
	guardErr        error
	fin             guard.Finalizer
	ev              evidence

	// checkedTools is the last tool set effects.CheckToolSet accepted.
	checkedTools *checkedToolSet
	// stamps formats the clock's readings.
	stamps stampCache
	// identities holds the model identity of the last done event.
	identities identityMemo

	modelTurns           int
	toolCalls            int
	activeToolCalls      int
	completionRejections int
	compactionCount      int
	ledgerTurn           int
	attachmentsDelivered bool
	latestArtifactRef    string
	latestCheckpoint     *checkpoint.Checkpoint
	calls                []CallRecord

	done   chan struct{}
	result Result
}

type pendingApproval struct {
	RequestID   string
	ReturnState string
	ToolCallID  string
	ToolName    string
}

type resolution struct {
	entry    pendingApproval
	decision string
}

func newSession(deps Deps, req Request, budget Budget, resume bool) *session {
	ctx, cancel := context.WithCancelCause(context.Background())
	s := &session{
		deps: deps, req: req, budget: budget, resume: resume, runID: req.RunID,
		executionID: newExecutionID(deps),
		ctx:         ctx, cancel: cancel,
		approvalGate: make(chan struct{}, 1),
		sm:           newMachine(),
		ev:           newEvidence(req),
		ledgerTurn:   -1,
		done:         make(chan struct{}),
	}
	now := deps.Clock.Now()
	s.deadline = min(int64(1<<53-1), now+budget.DeadlineMs)
	s.guard, s.guardErr = guard.New(guardConfig(s.runID, budget))
	if s.guard == nil {
		s.guard, _ = guard.New(guard.DefaultConfig(s.runID))
	}
	s.trace = newTracer(deps.Trace, deps.Clock, s.runID, req.TaskID, s.executionID)
	return s
}

// armDeadline aborts the run when its deadline passes (RUNTIME §10.1 step 7).
func (s *session) armDeadline() {
	remaining := s.deadline - s.deps.Clock.Now()
	fire := func() { s.cancel(newError(CodeDeadlineExceeded, "AI Coder run deadline exceeded.")) }
	if remaining <= 0 {
		fire()
		return
	}
	s.stopTimer = s.deps.Timers.AfterFunc(time.Duration(min(remaining, 2147000000))*time.Millisecond, fire)
}

func (s *session) stopDeadline() {
	if s.stopTimer != nil {
		s.stopTimer()
	}
}

func (s *session) finishWith(res Result) {
	s.result = res
	s.cancel(context.Canceled)
	close(s.done)
}

func (s *session) currentState() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sm.state
}

func (s *session) timestamp() string { return s.stamps.format(s.deps.Clock.Now()) }

// transition applies a runtime transition with its state_transition trace
// event and state runtime event (RUNTIME §9).
func (s *session) transition(to, reason string) error {
	s.mu.Lock()
	t, err := s.sm.apply(to, reason, s.timestamp())
	s.mu.Unlock()
	if err != nil || t == nil {
		return err
	}
	s.trace.emit(s.ctx, port.TraceStateTransition, t)
	s.emitEvent(Event{Type: EventState, Transition: t})
	return nil
}

// requestControl records a pause or cancel intent (RUNTIME §22.2).
func (s *session) requestControl(code, reason string) {
	s.mu.Lock()
	if s.intent != nil || IsTerminal(s.sm.state) {
		s.mu.Unlock()
		return
	}
	s.intent = &Error{Code: code, Message: reason}
	s.mu.Unlock()
	s.cancel(&Error{Code: code, Message: reason})
}

// checkControl is the control check of RUNTIME §22.1.
func (s *session) checkControl() error {
	s.mu.Lock()
	intent := s.intent
	s.mu.Unlock()
	if intent != nil {
		return &Error{Code: intent.Code, Message: intent.Message}
	}
	if s.deps.Clock.Now() >= s.deadline {
		return newError(CodeDeadlineExceeded, "AI Coder run deadline exceeded.")
	}
	if s.ctx.Err() != nil {
		return s.abortReason()
	}
	return nil
}

// abortReason is the run signal's reason as a runtime error.
func (s *session) abortReason() error {
	var re *Error
	if errors.As(context.Cause(s.ctx), &re) {
		return &Error{Code: re.Code, Message: re.Message}
	}
	return newError(CodeCanceled, "AI Coder run was canceled.")
}

// execute runs the whole segment and converts every ending into a result
// (RUNTIME §10.2, §22.3).
func (s *session) execute() (res Result) {
	defer func() {
		if r := recover(); r != nil {
			res = s.finishFromError(newError(CodeProviderError, "%v", r))
		}
	}()
	if err := s.transition(StatePreparing, "Initialize model, registry, budget and task state."); err != nil {
		return s.finishFromError(err)
	}
	if err := s.prepare(); err != nil {
		return s.finishFromError(err)
	}
	if s.resume {
		if err := s.transition(StateResuming, "Restore a verified checkpoint."); err != nil {
			return s.finishFromError(err)
		}
		if s.latestCheckpoint != nil {
			if err := s.transition(phaseState(string(s.latestCheckpoint.Phase)), "Continue from the checkpoint phase."); err != nil {
				return s.finishFromError(err)
			}
		}
	} else if err := s.transition(StateInspecting, "Inspect the workspace before acting."); err != nil {
		return s.finishFromError(err)
	}
	content, err := s.runLoop()
	if err != nil {
		return s.finishFromError(err)
	}
	return s.buildResult(StatusCompleted, content, nil)
}

func (s *session) buildResult(status, content string, err *Error) Result {
	s.mu.Lock()
	transitions := append([]Transition(nil), s.sm.history...)
	s.mu.Unlock()
	r := Result{
		RunID: s.runID, TaskID: s.req.TaskID, ExecutionID: s.executionID, Status: status, FinalResponse: content,
		Checkpoint: s.latestCheckpoint.Clone(), Transitions: transitions,
		Validation: cloneValidations(s.ev.validations), Writes: cloneEdits(s.ev.writes),
		Turns: s.modelTurns, Calls: append([]CallRecord(nil), s.calls...),
	}
	if err != nil {
		r.ErrorCode, r.ErrorMessage = err.Code, err.Message
	}
	return r
}

// asRuntimeError wraps anything that is not a runtime error as
// PROVIDER_ERROR with its message (RUNTIME §22.4).
func asRuntimeError(err error) *Error {
	var re *Error
	if errors.As(err, &re) {
		return re
	}
	return &Error{Code: CodeProviderError, Message: err.Error()}
}

// finishFromError ends the run from an error (RUNTIME §22.3, DECISIONS 12
// and 13).
func (s *session) finishFromError(err error) Result {
	re := asRuntimeError(err)
	s.mu.Lock()
	intent := s.intent
	s.mu.Unlock()
	switch {
	case (re.Code == CodeCanceled || (intent != nil && intent.Code == CodeCanceled)) && !faults.On(faults.CancelAsFailure):
		reason := re.Message
		if intent != nil {
			reason = intent.Message
		}
		s.terminate(StateCancelled, reason)
		return s.buildResult(StatusCancelled, "", re)
	case re.Code == CodePaused || (intent != nil && intent.Code == CodePaused):
		reason := re.Message
		if intent != nil {
			reason = intent.Message
		}
		if perr := s.persistenceSave(checkpoint.ReasonPause); perr != nil {
			pe := asRuntimeError(perr)
			fail := &Error{Code: pe.Code, Message: "Pause checkpoint failed: " + pe.Message}
			s.terminate(StateFailed, fail.Message)
			return s.buildResult(StatusFailed, "", fail)
		}
		s.terminate(StatePaused, reason)
		return s.buildResult(StatusPaused, "", nil)
	default:
		if s.toolSet != nil {
			_ = s.persistenceSave(checkpoint.ReasonFailure)
		}
		s.terminate(StateFailed, re.Message)
		return s.buildResult(StatusFailed, "", re)
	}
}

// terminate moves to a terminal state; if the table refuses the move, the
// state is forced (DECISIONS 13).
func (s *session) terminate(to, reason string) {
	s.mu.Lock()
	cur := s.sm.state
	s.mu.Unlock()
	if cur == to || cur == StateCompleted {
		return
	}
	if err := s.transition(to, reason); err != nil {
		s.mu.Lock()
		t := s.sm.force(to, reason, s.timestamp())
		s.mu.Unlock()
		s.trace.emit(context.Background(), port.TraceStateTransition, t)
		s.emitEvent(Event{Type: EventState, Transition: &t})
	}
}
