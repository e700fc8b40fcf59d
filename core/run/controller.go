package run

import (
	"cmp"
	"context"
	"sync"

	"github.com/galaxy-stack/conform/core/prompt"
)

// Default control reasons (RUNTIME §2).
const (
	DefaultCancelReason = "Canceled by caller."
	DefaultPauseReason  = "Paused by caller."
)

// Approval decisions for ResolveApproval.
const (
	DecisionGranted = "granted"
	DecisionDenied  = "denied"
)

// A Controller starts and controls runs (AiCoderRunController, RUNTIME §2).
// It keeps the active runs keyed by run ID; one run at a time per ID. It is
// safe for concurrent use.
type Controller struct {
	deps   Deps
	mu     sync.Mutex
	active map[string]*session
}

// New returns a controller over deps.
func New(deps Deps) *Controller {
	return &Controller{deps: deps.withDefaults(), active: map[string]*session{}}
}

// Start validates req synchronously and launches a new run. A validation or
// budget failure, missing ports, or an active run with the same ID is
// returned as a *RequestError and nothing is started.
func (c *Controller) Start(req Request) (*Handle, error) { return c.launch(req, false) }

// Resume validates req (which needs RunID) and launches a run that restores
// a trusted checkpoint: the request's own checkpoint with CheckpointTrust
// "trusted_host", else the store's latest one. Resume failures end the run
// CHECKPOINT_INCOMPATIBLE; they are not synchronous errors.
func (c *Controller) Resume(req Request) (*Handle, error) { return c.launch(req, true) }

// Cancel records a cancel intent for the active run runID; reason "" means
// DefaultCancelReason. It returns false when no such run is active.
func (c *Controller) Cancel(runID, reason string) bool {
	return c.control(runID, CodeCanceled, cmp.Or(reason, DefaultCancelReason))
}

// Pause records a pause intent for the active run runID; reason "" means
// DefaultPauseReason. It returns false when no such run is active.
func (c *Controller) Pause(runID, reason string) bool {
	return c.control(runID, CodePaused, cmp.Or(reason, DefaultPauseReason))
}

// control records the intent code with reason for the active run runID;
// it returns false when no such run is active.
func (c *Controller) control(runID, code, reason string) bool {
	s := c.lookup(runID)
	if s == nil {
		return false
	}
	s.requestControl(code, reason)
	return true
}

// ResolveApproval resolves the pending approval requestID of the active run
// runID with decision "granted" or "denied" (RUNTIME §23.3). It returns false
// when the run is not active, the request is not pending or the decision is
// not one of the two.
func (c *Controller) ResolveApproval(runID, requestID, decision string) bool {
	s := c.lookup(runID)
	if s == nil {
		return false
	}
	return s.resolveApproval(requestID, decision)
}

func (c *Controller) lookup(runID string) *session {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.active[runID]
}

func (c *Controller) launch(req Request, resume bool) (*Handle, error) {
	if c.deps.Model == nil || c.deps.Tools == nil {
		return nil, &RequestError{Kind: "TypeError", Message: "AI Coder run dependencies require a model and a tool executor."}
	}
	runID := req.RunID
	if !resume && runID == "" {
		runID = c.deps.IDs.NewID("run")
	}
	pr := req.Request
	pr.RunID = runID
	if err := prompt.ValidateRequest(pr); err != nil {
		return nil, asRequestError(err)
	}
	in, err := req.budgetInput()
	if err != nil {
		return nil, err
	}
	budget, err := NormalizeBudget(in)
	if err != nil {
		return nil, err
	}
	snap := Request{Request: pr.Snapshot()}
	c.mu.Lock()
	if _, ok := c.active[runID]; ok {
		c.mu.Unlock()
		return nil, &RequestError{Kind: "Error", Message: "AI Coder run " + runID + " is already active."}
	}
	s := newSession(c.deps, snap, budget, resume)
	c.active[runID] = s
	c.mu.Unlock()
	s.armDeadline()
	go func() {
		res := s.execute()
		s.stopDeadline()
		c.mu.Lock()
		delete(c.active, runID)
		c.mu.Unlock()
		s.finishWith(res)
	}()
	return &Handle{RunID: runID, s: s, c: c}, nil
}

// A Handle is one launched run (AiCoderRunHandle).
type Handle struct {
	// RunID is the run's ID.
	RunID string
	s     *session
	c     *Controller
}

// Done is closed when the run has ended.
func (h *Handle) Done() <-chan struct{} { return h.s.done }

// Wait blocks until the run ends and returns its result. Ordinary failures
// are results, never errors.
func (h *Handle) Wait() Result {
	<-h.s.done
	return h.s.result
}

// State returns the run's current state.
func (h *Handle) State() string { return h.s.currentState() }

// Cancel records a cancel intent; see Controller.Cancel.
func (h *Handle) Cancel(reason string) bool { return h.c.Cancel(h.RunID, reason) }

// Pause records a pause intent; see Controller.Pause.
func (h *Handle) Pause(reason string) bool { return h.c.Pause(h.RunID, reason) }

// ResolveApproval resolves a pending approval; see Controller.ResolveApproval.
func (h *Handle) ResolveApproval(requestID, decision string) bool {
	return h.c.ResolveApproval(h.RunID, requestID, decision)
}

// Run starts req on a fresh controller over deps and waits for the result.
// When ctx is done first, the run is cancelled with DefaultCancelReason and
// its cancelled result returned. Request errors are returned as errors.
func Run(ctx context.Context, deps Deps, req Request) (Result, error) {
	h, err := New(deps).Start(req)
	if err != nil {
		return Result{}, err
	}
	select {
	case <-h.Done():
	case <-ctx.Done():
		h.Cancel(DefaultCancelReason)
	}
	return h.Wait(), nil
}
