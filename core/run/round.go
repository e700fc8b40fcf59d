package run

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/port"
)

// roundOutput is a validated model round (RUNTIME §12.2 "Output").
type roundOutput struct {
	assistant port.Message
	content   string
	thinking  string
	calls     []port.ToolCall
	usage     *port.TokenUsage
	identity  port.ModelIdentity
}

// providerError is a provider failure inside a round attempt.
func providerErr(code, msg string, retryable bool, mode string) *port.ProviderError {
	return &port.ProviderError{Code: code, Message: msg, Retryable: retryable, RetryMode: mode}
}

// modelRound runs one model round with bounded retries (RUNTIME §12).
func (s *session) modelRound(messages []port.Message, tools []port.ToolDefinition) (*roundOutput, error) {
	think := s.caps.Thinking != port.ThinkingNone && s.caps.Thinking != port.ThinkingUnknown
	maxOut := s.maxOutputTokens()
	var extra []port.Message
	for attempt := 0; ; attempt++ {
		if err := s.checkControl(); err != nil {
			return nil, err
		}
		req := port.RoundRequest{
			Attachments: s.roundAttachments(),
			Messages:    append(append([]port.Message(nil), messages...), extra...), Tools: tools, Think: think,
			PreserveThinking: s.caps.PreserveThinking == port.CapabilitySupported, MaxOutputTokens: maxOut,
		}
		started := s.deps.Clock.Now()
		out, err := s.attempt(req)
		if err == nil {
			return out, nil
		}
		if ctrl := s.checkControl(); ctrl != nil {
			return nil, ctrl
		}
		var pe *port.ProviderError
		if !errors.As(err, &pe) || !pe.Retryable || attempt >= s.budget.MaxModelRetries {
			return nil, finalRoundError(err)
		}
		delays := s.budget.ModelRetryDelaysMs
		delay := delays[min(attempt, len(delays)-1)]
		now := s.deps.Clock.Now()
		elapsed, remaining := now-started, s.deadline-now
		if remaining <= delay+elapsed {
			return nil, newError(CodeProviderError, "Model retry %d skipped: the run has %dms of budget left, below the %dms backoff plus %dms spent on the failed request. Raise the scenario deadline or reduce per-attempt work instead of retrying.",
				attempt+1, remaining, delay, elapsed)
		}
		withoutThinking := pe.RetryMode == "without_thinking"
		disabled := false
		if withoutThinking && s.caps.Thinking == port.ThinkingOptional {
			think, disabled = false, true
		}
		fb := retryFeedback(s.modelTurns, pe.Code, pe.Message, retryStrategy(delay, disabled, withoutThinking))
		s.addFeedback(fb)
		extra = []port.Message{{Role: "user", Content: fb}}
		s.emitEvent(Event{Type: EventModelRetry, Attempt: attempt + 1, DelayMs: delay, Message: pe.Message})
		if err := s.deps.Sleeper.Sleep(s.ctx, time.Duration(delay)*time.Millisecond); err != nil {
			if ctrl := s.checkControl(); ctrl != nil {
				return nil, ctrl
			}
			return nil, newError(CodeCanceled, "AI Coder run was canceled.")
		}
	}
}

// finalRoundError maps a round failure that is not retried (RUNTIME §12.3
// step 2).
func finalRoundError(err error) error {
	var re *Error
	if errors.As(err, &re) {
		return re
	}
	var pe *port.ProviderError
	if errors.As(err, &pe) {
		code := CodeProviderError
		if pe.Code == ProviderAuthentication {
			code = CodeProviderAuthentication
		}
		return &Error{Code: code, Message: pe.Message, Retryable: pe.Retryable}
	}
	return &Error{Code: CodeProviderError, Message: err.Error()}
}

// attempt runs one streamed attempt and validates it (RUNTIME §12.2).
func (s *session) attempt(req port.RoundRequest) (*roundOutput, error) {
	var events []port.RoundEvent
	err := safeCall(func() error {
		var e error
		events, e = s.deps.Model.StreamRound(s.ctx, req)
		return e
	})
	if err != nil {
		var pe *port.ProviderError
		if errors.As(err, &pe) {
			return nil, pe
		}
		return nil, providerErr(ProviderError, err.Error(), false, "")
	}
	var content, thinking strings.Builder
	var done *port.RoundEvent
	var calls []port.ToolCall
	var usage *port.TokenUsage
	started, payload := false, false
	for i := range events {
		ev := events[i]
		if done != nil {
			return nil, newError(CodeInvalidModelStream, "Model emitted %s after the done event.", ev.Type)
		}
		fwd := ev
		if ev.Type == port.EventDone && ev.Identity != nil {
			id, _ := s.identities.forms(*ev.Identity)
			fwd.Identity = &id
		}
		s.emitEvent(Event{Type: EventModel, Model: &fwd})
		if s.ctx.Err() != nil {
			return nil, s.abortReason()
		}
		switch ev.Type {
		case port.EventStarted:
			if started || payload {
				return nil, newError(CodeInvalidModelStream, "Model emitted an out-of-order or duplicate started event.")
			}
			started = true
			if len(s.req.Attachments) > 0 {
				s.attachmentsDelivered = true
			}
			continue
		case port.EventCanceled:
			return nil, providerErr(ProviderCanceled, "Model stream was canceled.", false, "")
		case port.EventError:
			if ev.Error == nil {
				return nil, providerErr(ProviderError, "Model stream reported an error without details.", false, "")
			}
			e := *ev.Error
			return nil, &e
		}
		if !started {
			return nil, newError(CodeInvalidModelStream, "Model emitted %s before the started event.", ev.Type)
		}
		payload = true
		switch ev.Type {
		case port.EventThinking:
			thinking.WriteString(ev.Delta)
		case port.EventContent:
			content.WriteString(ev.Delta)
		case port.EventToolCall:
			if ev.Call != nil {
				calls = append(calls, *ev.Call)
			} else {
				calls = append(calls, port.ToolCall{})
			}
		case port.EventUsage:
			usage = ev.Usage
		case port.EventDone:
			d := ev
			done = &d
		default:
			return nil, newError(CodeInvalidModelStream, "Model emitted an unknown %s event.", ev.Type)
		}
	}
	if done == nil {
		return nil, providerErr(ProviderMalformed, "Model stream ended without a done event.", false, "")
	}
	return s.checkDone(done, content.String(), thinking.String(), calls, usage)
}

func (s *session) checkDone(done *port.RoundEvent, streamed, streamedThinking string, calls []port.ToolCall, usage *port.TokenUsage) (*roundOutput, error) {
	switch done.StopReason {
	case port.StopLength:
		return nil, providerErr(ProviderMalformed, fmt.Sprintf("Model stopped at the output limit ('length') after %d tool call(s) and %d character(s) of content; retry with hidden thinking disabled and a shorter response.",
			len(calls), canon.UTF16Len(firstNonEmpty(done.Content, streamed))), true, "without_thinking")
	case port.StopUnknown:
		return nil, newError(CodeInvalidModelStream, "Model stopped with non-final reason 'unknown'.")
	case port.StopToolCalls:
		if len(calls) == 0 {
			return nil, newError(CodeInvalidModelStream, "Model reported tool_calls without emitting a correlated tool call.")
		}
	default:
		if len(calls) > 0 {
			return nil, newError(CodeInvalidModelStream, "Model emitted tool calls but stopped with '%s'.", done.StopReason)
		}
	}
	if done.Identity != nil {
		if _, key := s.identities.forms(*done.Identity); key != s.integrity.ModelIdentity {
			return nil, newError(CodeCapabilityMismatch, "Model identity changed during the run.")
		}
	}
	if badCallIDs(calls) {
		return nil, newError(CodeInvalidModelStream, "Model returned duplicate or empty toolCallId values.")
	}
	if streamed != "" && done.Content != "" && streamed != done.Content {
		return nil, newError(CodeInvalidModelStream, "Model done content does not match streamed content.")
	}
	if streamedThinking != "" && done.Thinking != "" && streamedThinking != done.Thinking {
		return nil, newError(CodeInvalidModelStream, "Model done thinking does not match streamed thinking.")
	}
	content := firstNonEmpty(done.Content, streamed)
	thinking := firstNonEmpty(done.Thinking, streamedThinking)
	if done.StopReason == port.StopCompleted && canon.IsBlank(content) {
		return nil, newError(CodeInvalidModelStream, "Model returned a completed response with no visible content and no tool call.")
	}
	if done.Usage != nil {
		usage = done.Usage
	}
	msg := port.Message{Role: "assistant", Content: content, ToolCalls: calls}
	if s.caps.PreserveThinking == port.CapabilitySupported && thinking != "" {
		msg.Thinking = thinking
	}
	out := &roundOutput{assistant: msg, content: content, thinking: thinking, calls: calls, usage: usage}
	if done.Identity != nil {
		out.identity = *done.Identity
	}
	return out, nil
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
