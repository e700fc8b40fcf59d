package run

import (
	"errors"

	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/faults"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/window"
)

// newWindow creates the segment's context manager after prompt assembly
// (RUNTIME §10.3, CONTRACTS §12.5): the system prompt and the user task as
// P0 items, the model's context window, the request's token profile and
// images, the compaction checkpoint function and, on resume, the verified
// checkpoint.
func (s *session) newWindow(userTask string, resumeFrom *checkpoint.Checkpoint) error {
	profile := window.Balanced
	if s.req.TokenProfile != "" {
		profile = window.Profile(s.req.TokenProfile)
	}
	contextWindow := 0
	if s.caps.ContextWindow != nil {
		contextWindow = *s.caps.ContextWindow
	}
	var images []window.Image
	for _, a := range s.req.Attachments {
		images = append(images, window.Image{ArtifactID: a.ArtifactID})
	}
	m, err := window.New(window.Config{RunID: s.runID, TaskID: s.req.TaskID, Profile: profile, ContextWindow: contextWindow,
		SystemPrompt: s.prompt.SystemPrompt, GoalMessage: userTask, Images: images,
		Checkpoint: s.compactionCheckpoint, Resume: resumeFrom})
	if err != nil {
		return &Error{Code: CodeProviderError, Message: err.Error()}
	}
	s.win = m
	return nil
}

// mandatoryState is the RUNTIME §28 document placed in the context before
// each request.
func (s *session) mandatoryState() (string, error) {
	writes := make([]any, len(s.ev.writes))
	for i, w := range s.ev.writes {
		writes[i] = w
	}
	s.mu.Lock()
	pending := make([]window.StatePendingApproval, 0, len(s.pending))
	for _, p := range s.pending {
		pending = append(pending, window.StatePendingApproval{RequestID: p.RequestID, ToolCallID: p.ToolCallID, ToolName: p.ToolName})
	}
	state := s.sm.state
	s.mu.Unlock()
	research := make([]window.StateResearchSource, 0, len(s.ev.research))
	for _, r := range s.ev.research {
		research = append(research, window.StateResearchSource{ContentHash: r.ContentHash, Kind: string(r.Kind), Summary: r.Summary,
			Title: r.Title, Truncated: r.Truncated, URL: r.URL})
	}
	validations := make([]window.StateValidation, 0, len(s.ev.validations))
	for _, v := range s.ev.validations {
		validations = append(validations, window.StateValidation{ID: v.ID, Paths: v.Paths, Sequence: int(v.Sequence), Status: string(v.Status)})
	}
	plan := map[string]any{"completed": orEmpty(s.ev.plan.Completed), "inProgress": s.ev.plan.InProgress, "pending": orEmpty(s.ev.plan.Pending)}
	return window.MandatoryState(window.StateInput{
		AcceptanceCriteria: orEmpty(s.ev.criteria), Approvals: orEmpty(s.ev.approvals), Decisions: orEmpty(s.ev.decisions),
		Writes: writes, MaxTurns: s.budget.MaxTurns, ModelTurns: s.modelTurns, MaxToolCalls: s.budget.MaxToolCalls,
		ToolCalls: s.toolCalls, Finalizing: s.fin.Active(), NextAction: s.ev.nextAction, OpenProblems: orEmpty(s.ev.openProblems),
		State: state, PendingApprovals: pending, Plan: plan, ResearchSources: research, Validation: validations,
		WorkspaceRoot: s.req.WorkspaceRoot,
	})
}

func orEmpty[T any](v []T) []T {
	if v == nil {
		return []T{}
	}
	return v
}

// countError marks a failure of the provider's token count inside Fit.
type countError struct{ err error }

func (e *countError) Error() string { return e.err.Error() }

// prepareRound is the context step before each model request (RUNTIME §11
// steps 5–7): the mandatory state, context preparation with its
// compactions, and the provider token count with one forced
// provider_overflow compaction. It returns the request messages.
func (s *session) prepareRound(tools []port.ToolDefinition) ([]port.Message, error) {
	doc, err := s.mandatoryState()
	if err != nil {
		return nil, &Error{Code: CodeProviderError, Message: err.Error()}
	}
	s.win.ReplaceMandatoryState(doc, s.modelTurns)
	p, err := s.win.Fit(window.PrepareInput{Tools: tools, Turn: s.modelTurns}, s.countTokens)
	if err != nil {
		return nil, s.contextError(err)
	}
	s.prepared = p
	s.trace.emit(s.ctx, port.TraceContextDiagnostic, p.Diagnostic)
	s.emitEvent(Event{Type: EventContextPressure, Pressure: string(p.Diagnostic.Pressure), Tokens: p.Diagnostic.CurrentInputTokens})
	return p.Messages, nil
}

// contextError classifies a failure of the context step (RUNTIME §11 steps
// 6–7, DECISIONS 41).
func (s *session) contextError(err error) error {
	var be *window.BudgetError
	var ce *countError
	var re *Error
	switch {
	case errors.As(err, &be):
		if faults.On(faults.BudgetAsProviderError) {
			return newError(CodeProviderError, "%s", be.RuntimeMessage())
		}
		return newError(CodeContextBudget, "%s", be.RuntimeMessage())
	case errors.As(err, &ce):
		if ctrl := s.checkControl(); ctrl != nil {
			return ctrl
		}
		out := &Error{Code: CodeProviderError, Message: "Token counting failed: " + errText(ce.err)}
		var pe *port.Error
		if errors.As(ce.err, &pe) {
			out.Retryable = pe.Retryable
		}
		return out
	case errors.As(err, &re):
		return re
	}
	return &Error{Code: CodeProviderError, Message: err.Error()}
}

// countTokens is the provider token count of a prepared request (RUNTIME
// §11 step 7). A model without a token counter is priced by the context
// manager's estimator.
func (s *session) countTokens(messages []port.Message, tools []port.ToolDefinition) (int, error) {
	if err := s.checkControl(); err != nil {
		return 0, err
	}
	counter, ok := s.deps.Model.(port.TokenCounter)
	if !ok {
		est := s.win.Estimator()
		return est.Messages(messages) + est.ToolDefinitions(tools), nil
	}
	var n port.TokenCount
	err := safeCall(func() error {
		var e error
		n, e = counter.CountTokens(s.ctx, messages, tools)
		return e
	})
	if err != nil {
		return 0, &countError{err}
	}
	return n.Tokens, nil
}

// compactionCheckpoint is the context manager's checkpoint provider
// (RUNTIME §21.2): transition to compacting, save a main-context checkpoint
// with the phase of the interrupted state and a compaction increment of 1,
// transition back.
func (s *session) compactionCheckpoint(req window.CheckpointRequest) (window.CheckpointResult, error) {
	interrupted := s.currentState()
	phase := checkpoint.Phase(checkpointPhase(interrupted))
	if err := s.transition(StateCompacting, "Save a durable checkpoint before compacting the model context ("+string(req.Reason)+")."); err != nil {
		return window.CheckpointResult{}, err
	}
	if err := s.saveCheckpoint(s.ctx, req.Reason, true, phase, 1); err != nil {
		return window.CheckpointResult{}, err
	}
	if err := s.transition(interrupted, "Continue after context compaction."); err != nil {
		return window.CheckpointResult{}, err
	}
	return window.CheckpointResult{Checkpoint: s.latestCheckpoint.Clone(), ArtifactRef: s.latestArtifactRef}, nil
}

// maxOutputTokens is the round's output limit (RUNTIME §11 step 8).
func (s *session) maxOutputTokens() int {
	modelMax := 0
	if s.caps.MaxOutputTokens != nil {
		modelMax = *s.caps.MaxOutputTokens
	}
	return s.prepared.Budget.RoundMaxOutput(modelMax)
}

// completeRound records the round in the token ledger (RUNTIME §11 step 9)
// and reports the entry as a trace event and a runtime event.
func (s *session) completeRound(out *roundOutput) {
	entry := s.win.CompleteRound(window.RoundRecord{Model: s.integrity.ModelIdentity, Prepared: s.prepared,
		Thinking: out.thinking, VisibleOutput: out.content, Turn: s.modelTurns, Usage: window.UsageFromPort(out.usage),
		Timestamp: s.timestamp()})
	s.ledgerTurn = s.modelTurns
	s.trace.emit(s.ctx, port.TraceTokenLedger, entry)
	s.emitEvent(Event{Type: EventTokenLedger, Ledger: &TokenLedger{ActualInput: entry.ActualInput, CacheHitRate: entry.CacheHitRate,
		CachedInput: entry.CachedInput, CumulativeCacheHitRate: entry.CumulativeCacheHitRate, OutputTokens: entry.OutputTokens,
		Turn: entry.Turn}})
}

// boundOutput bounds model-visible output with the result's outputLimits or
// the budget's toolOutput (RUNTIME §15 steps 13–14, CONTRACTS §12.6). It
// reports whether the content was truncated; invalid limits are an error
// (an unknown outcome).
func (s *session) boundOutput(r port.ToolResult) (port.ToolResult, bool, error) {
	tail := s.budget.ToolOutputTailFraction
	limits := window.Limits{MaxBytes: float64(s.budget.ToolOutputMaxBytes), MaxTokens: float64(s.budget.ToolOutputMaxTokens), TailFraction: &tail}
	if r.OutputLimits != nil {
		limits = window.LimitsFromPort(*r.OutputLimits)
	}
	b, err := window.BoundToolOutput(r.Content, limits, window.BoundOptions{})
	if err != nil {
		return r, false, err
	}
	r.Content = b.Content
	if b.Artifact != nil && r.ArtifactRef == "" {
		r.ArtifactRef = "artifact://" + b.Artifact.ID
	}
	return r, b.Truncated, nil
}
