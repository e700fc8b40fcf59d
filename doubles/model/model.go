package model

import (
	"context"
	"slices"
	"sync"

	"github.com/galaxy-stack/conform/core/clone"
	"github.com/galaxy-stack/conform/core/port"
)

// Scripted plays back rounds in order, one per StreamRound call, and answers
// token counts from a scripted queue (LAB §8). It records every round
// request and token-count input it receives. Its identity is fixed at
// construction; its capability snapshot changes only through [Scripted.Reprobe].
// It is safe for concurrent use.
type Scripted struct {
	rounds   []Round
	steps    []TokenStep
	identity port.ModelIdentity

	mu           sync.Mutex
	capabilities port.ModelCapabilities
	roundCursor  int
	stepCursor   int
	requests     []recordedRequest
	answers      []answer
	countInputs  []recordedCount
	messages     messageCache
}

var (
	_ port.Model              = (*Scripted)(nil)
	_ port.TokenCounter       = (*Scripted)(nil)
	_ port.CapabilityReporter = (*Scripted)(nil)
)

// answer says how one request was answered: by scripted round (1-based),
// or not at all.
type answer struct {
	outcome string
	round   int
}

// Request outcomes, as reported in RequestRecord.Outcome.
const (
	OutcomeRound     = "round"     // answered by a scripted round
	OutcomeExhausted = "exhausted" // past the end of the script
	OutcomeCanceled  = "canceled"  // the context was done; no round consumed
)

// CountInput is one token-count request as the double received it.
type CountInput struct {
	Messages []port.Message        `json:"messages"`
	Tools    []port.ToolDefinition `json:"tools"`
}

// An Option configures a Scripted double.
type Option func(*config)

type config struct {
	contextWindow   int
	maxOutputTokens int
	steps           []TokenStep
}

// WithOverrides applies the fixture's "model" object (LAB §1.6); nil fields
// keep their defaults.
func WithOverrides(o Overrides) Option {
	return func(c *config) {
		if o.ContextWindow != nil {
			c.contextWindow = *o.ContextWindow
		}
		if o.MaxOutputTokens != nil {
			c.maxOutputTokens = *o.MaxOutputTokens
		}
		if o.TokenCountSteps != nil {
			c.steps = o.TokenCountSteps
		}
	}
}

// WithContextWindow sets the snapshot's context window (default 128000).
func WithContextWindow(n int) Option { return func(c *config) { c.contextWindow = n } }

// WithMaxOutputTokens sets the snapshot's output limit (default 8192).
func WithMaxOutputTokens(n int) Option { return func(c *config) { c.maxOutputTokens = n } }

// WithTokenCountSteps sets the token-count queue (default empty: every count
// is an estimate).
func WithTokenCountSteps(steps ...TokenStep) Option {
	return func(c *config) { c.steps = steps }
}

// NewScripted returns a double that plays back rounds. The double keeps its
// own deep copy of rounds and of the token steps: later changes by the
// caller do not affect it.
func NewScripted(rounds []Round, opts ...Option) *Scripted {
	cfg := config{contextWindow: DefaultContextWindow, maxOutputTokens: DefaultMaxOutputTokens}
	for _, o := range opts {
		o(&cfg)
	}
	return &Scripted{
		rounds:       cloneRounds(rounds),
		steps:        cloneSteps(cfg.steps),
		identity:     scriptedIdentity(),
		capabilities: scriptedCapabilities(cfg.contextWindow, cfg.maxOutputTokens),
	}
}

// Identity returns the double's identity (LAB §8.1).
func (s *Scripted) Identity() port.ModelIdentity { return s.identity }

// CapabilitySnapshot returns a deep copy of the double's capability snapshot
// (LAB §8.1).
func (s *Scripted) CapabilitySnapshot() port.ModelCapabilities {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.capabilities.Clone()
}

// Reprobe replaces the capability snapshot with what change makes of a copy
// of it, as a provider probed again would answer: later calls of
// Capabilities and CapabilitySnapshot report the new snapshot. The identity
// stays (a change to the snapshot's identity is undone); the rounds and
// token steps are not touched.
func (s *Scripted) Reprobe(change func(*port.ModelCapabilities)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.capabilities.Clone()
	change(&c)
	c.Identity = s.identity
	s.capabilities = c
}

// Capabilities returns a deep copy of the capability snapshot, or a
// *port.Error with code CANCELED when ctx is done.
func (s *Scripted) Capabilities(ctx context.Context) (port.ModelCapabilities, error) {
	if ctx.Err() != nil {
		return port.ModelCapabilities{}, canceled()
	}
	return s.CapabilitySnapshot(), nil
}

// CountTokens answers a token count (LAB §8.2). When ctx is done it fails
// with a *port.Error CANCELED and neither records the input nor consumes a
// step. Otherwise it records the input and consumes the next scripted step:
// a count is exact with source "provider"; a scripted error is returned as a
// *port.Error whose code is the scripted one if it is a token-count code
// (CANCELED, CAPABILITY_MISMATCH, DEADLINE_EXCEEDED, INTERNAL, INVALID_INPUT,
// LIMIT_EXCEEDED, PROVIDER_ERROR, UNAVAILABLE, UNSUPPORTED) and
// PROVIDER_ERROR otherwise. With the queue exhausted the answer is an
// inexact estimate of the compact JSON of the input.
func (s *Scripted) CountTokens(ctx context.Context, messages []port.Message, tools []port.ToolDefinition) (port.TokenCount, error) {
	if ctx.Err() != nil {
		return port.TokenCount{}, canceled()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	in, size := s.messages.recordCount(messages, tools)
	s.countInputs = append(s.countInputs, in)
	if s.stepCursor < len(s.steps) {
		step := s.steps[s.stepCursor]
		s.stepCursor++
		if step.Err == nil {
			return port.TokenCount{Exact: true, Source: "provider", Tokens: step.Tokens}, nil
		}
		return port.TokenCount{}, countError(*step.Err)
	}
	return port.TokenCount{Exact: false, Source: "estimate", Tokens: estimateSize(size)}, nil
}

// countCodes are the codes a scripted token-count error keeps (LAB §8.2).
var countCodes = []string{
	port.CodeCanceled, port.CodeCapabilityMismatch, port.CodeDeadlineExceeded,
	port.CodeInternal, port.CodeInvalidInput, port.CodeLimitExceeded,
	port.CodeProviderError, port.CodeUnavailable, port.CodeUnsupported,
}

func countError(e StepError) *port.Error {
	code := port.CodeProviderError
	if slices.Contains(countCodes, e.Code) {
		code = e.Code
	}
	return &port.Error{Code: code, Message: e.Message, Retryable: e.Retryable != nil && *e.Retryable}
}

func canceled() *port.Error {
	return &port.Error{Code: port.CodeCanceled, Message: canceledMessage}
}

// StreamRound answers one round request (LAB §8.3). It records the request
// first, so canceled requests count too. When ctx is done it answers with a
// single canceled event and consumes no round. Otherwise it consumes the
// next round, even past the end of the script, where it answers with a
// PROVIDER_ERROR error event. The events are the caller's to keep: they
// share no memory with the script or with earlier answers. The error result
// is always nil; the double has no transport to fail.
func (s *Scripted) StreamRound(ctx context.Context, req port.RoundRequest) ([]port.RoundEvent, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	record, size := s.messages.recordRequest(req)
	s.requests = append(s.requests, record)
	if ctx.Err() != nil {
		s.answers = append(s.answers, answer{outcome: OutcomeCanceled})
		return []port.RoundEvent{{Type: port.EventCanceled}}, nil
	}
	index := s.roundCursor
	s.roundCursor++
	if index >= len(s.rounds) {
		s.answers = append(s.answers, answer{outcome: OutcomeExhausted})
		return []port.RoundEvent{{Type: port.EventError, Error: &port.ProviderError{
			Code:    port.CodeProviderError,
			Message: exhaustedMessage,
		}}}, nil
	}
	s.answers = append(s.answers, answer{outcome: OutcomeRound, round: index + 1})
	r := s.rounds[index]
	if len(r.Events) > 0 {
		return rawEvents(r, s.identity), nil
	}
	return structuredEvents(r, size, s.identity), nil
}

// RoundsConsumed returns the round cursor: the number of requests answered
// from the script or past its end (LAB §5 modelRoundsConsumed). It exceeds
// RoundCount once the script is exhausted.
func (s *Scripted) RoundsConsumed() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.roundCursor
}

// RoundCount returns the number of scripted rounds.
func (s *Scripted) RoundCount() int { return len(s.rounds) }

// TokenStepsConsumed returns the token-count cursor (LAB §5
// modelTokenCountStepsConsumed).
func (s *Scripted) TokenStepsConsumed() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stepCursor
}

// TokenStepCount returns the number of scripted token-count steps.
func (s *Scripted) TokenStepCount() int { return len(s.steps) }

// Consumed reports whether exactly every scripted round and every scripted
// token-count step was used: the fixture report's allModelStepsConsumed
// (LAB §4.15). A request past the end of the script makes it false.
func (s *Scripted) Consumed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.roundCursor == len(s.rounds) && s.stepCursor == len(s.steps)
}

// RequestCount returns the number of round requests received, canceled ones
// included (LAB §5 modelRequestCount).
func (s *Scripted) RequestCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests)
}

// Requests returns deep copies of the round requests received so far,
// oldest first.
func (s *Scripted) Requests() []port.RoundRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]port.RoundRequest, len(s.requests))
	for i, r := range s.requests {
		out[i] = cloneRequest(r.req)
		out[i].Messages = messages(r.msgs)
	}
	return out
}

// CountInputs returns deep copies of the token-count inputs received so
// far, oldest first; canceled counts are not recorded.
func (s *Scripted) CountInputs() []CountInput {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]CountInput, len(s.countInputs))
	for i, in := range s.countInputs {
		out[i] = CountInput{Messages: messages(in.msgs), Tools: cloneTools(in.tools)}
	}
	return out
}

func cloneRounds(rs []Round) []Round {
	out := make([]Round, len(rs))
	for i, r := range rs {
		r.Content = clone.Ptr(r.Content)
		r.InputTokens = clone.Ptr(r.InputTokens)
		r.OutputTokens = clone.Ptr(r.OutputTokens)
		if r.ToolCalls != nil {
			calls := make([]ToolCall, len(r.ToolCalls))
			for j, c := range r.ToolCalls {
				c.Arguments = clone.Object(c.Arguments)
				calls[j] = c
			}
			r.ToolCalls = calls
		}
		if r.Events != nil {
			events := make([]Event, len(r.Events))
			for j, e := range r.Events {
				events[j] = cloneEvent(e)
			}
			r.Events = events
		}
		out[i] = r
	}
	return out
}

func cloneEvent(e Event) Event {
	e.Delta = clone.Ptr(e.Delta)
	e.Content = clone.Ptr(e.Content)
	e.Thinking = clone.Ptr(e.Thinking)
	e.Retryable = clone.Ptr(e.Retryable)
	if e.Call != nil {
		c := *e.Call
		c.Arguments = clone.Object(c.Arguments)
		e.Call = &c
	}
	e.Usage = cloneUsage(e.Usage)
	if e.Identity != nil {
		id := EventIdentity{
			BaseURL:        clone.Ptr(e.Identity.BaseURL),
			Model:          clone.Ptr(e.Identity.Model),
			Provider:       clone.Ptr(e.Identity.Provider),
			RuntimeVersion: clone.Ptr(e.Identity.RuntimeVersion),
		}
		e.Identity = &id
	}
	return e
}

func cloneSteps(steps []TokenStep) []TokenStep {
	out := make([]TokenStep, len(steps))
	for i, st := range steps {
		if st.Err != nil {
			e := *st.Err
			e.Retryable = clone.Ptr(e.Retryable)
			st.Err = &e
		}
		out[i] = st
	}
	return out
}
