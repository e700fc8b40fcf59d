package run

import (
	"context"
	"errors"
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/core/faults"
	"github.com/galaxy-stack/conform/core/port"
)

// callState is one call moving through the per-call pipeline (RUNTIME §15).
type callState struct {
	call           port.ToolCall
	argumentsHash  string
	expected       string // the round tool set's canonical ID for the name
	idempotencyKey string
	result         port.ToolResult
	// writeCapable reports whether the round tool set grants the expected
	// canonical ID the write capability.
	writeCapable bool
	// recordedWrites are the writes applied as evidence (generated paths
	// excluded) and fingerprint the capture made for them (RUNTIME §16.3).
	recordedWrites []port.Write
	fingerprint    string
	// truncated reports that output bounding cut the content.
	truncated bool
}

var contentShaPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"contentSha256":"[0-9a-fA-F]{64}"`) })

// argumentDigest is the redacted canonical JSON of args, cut to 160 UTF-16
// units (RUNTIME §15 step 7).
func argumentDigest(args map[string]any) string {
	if args == nil {
		args = map[string]any{}
	}
	text := stableJSON(args)
	if strings.Contains(text, `"contentSha256"`) {
		text = contentShaPattern().ReplaceAllString(text, `"contentSha256":"<re-read to refresh>"`)
	}
	return canon.CutUTF16(checkpoint.Redact(text), 160)
}

// requestedTimeoutMs is the call's numeric timeoutMs argument when finite
// and positive, else 0.
func requestedTimeoutMs(args map[string]any) int {
	v, ok := args["timeoutMs"].(float64)
	if !ok || math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 {
		return 0
	}
	if v > math.MaxInt32 {
		return math.MaxInt32
	}
	return int(math.Ceil(v))
}

// executeGuarded runs the per-call pipeline under the dispatch guard
// (RUNTIME §15, §29, DECISIONS 10).
func (s *session) executeGuarded(pc preparedCall, roundSet *port.ToolSet) (observation, error) {
	call := pc.call
	c := &callState{call: call, argumentsHash: pc.argumentsHash, expected: roundSet.CanonicalToolIDs[call.Name]}
	c.writeCapable = slices.Contains(roundSet.EffectCapabilities[c.expected], "write")
	if s.pendingCount() > 0 {
		return observation{}, newError(CodeToolExecution, "No tool call may execute while an approval request is unresolved.")
	}
	if s.ev.seen[call.ToolCallID] {
		return observation{}, newError(CodeInvalidModelStream, "toolCallId %s was already used in this run.", call.ToolCallID)
	}
	s.ev.seen[call.ToolCallID] = true
	s.toolCalls++
	if s.toolCalls > s.budget.MaxToolCalls {
		return observation{}, newError(CodeMaxToolCalls, "AI Coder reached maxToolCalls=%d.", s.budget.MaxToolCalls)
	}
	key := idempotencyKey(s.runID, call.ToolCallID, call.Name, c.argumentsHash)
	c.idempotencyKey = key
	s.ev.pushToolCall(checkpoint.ToolCallRecord{ArgumentDigest: argumentDigest(call.Arguments), ArgumentsHash: c.argumentsHash,
		IdempotencyKey: key, Name: call.Name, Outcome: checkpoint.OutcomeUnknown, ToolCallID: call.ToolCallID})
	if blocked := s.guardCall(c); blocked != nil {
		res := *blocked
		s.ev.recordOutcome(call.ToolCallID, checkpoint.OutcomeFailed)
		s.calls = append(s.calls, CallRecord{Call: call, CanonicalID: c.expected, Result: &res, Outcome: string(checkpoint.OutcomeFailed)})
		s.traceResult(call, res, false)
		s.emitEvent(Event{Type: EventToolResult, Call: &call, Result: &res})
		return observationOf(call, res), nil
	}
	s.trace.emit(s.ctx, port.TraceToolCall, map[string]any{"argumentsHash": c.argumentsHash, "canonicalName": call.Name,
		"idempotencyKey": key, "toolCallId": call.ToolCallID})
	s.emitEvent(Event{Type: EventToolStart, Call: &call})
	if err := s.checkControl(); err != nil {
		return observation{}, err
	}
	rec := CallRecord{Call: call, CanonicalID: c.expected, Dispatched: true, Outcome: string(checkpoint.OutcomeUnknown)}
	res, err := s.dispatch(c)
	if err != nil {
		rec.Error = err.Error()
		s.calls = append(s.calls, rec)
		return observation{}, err
	}
	c.result = res
	if err := s.afterDispatch(c); err != nil {
		rec.Result, rec.Error = &c.result, err.Error()
		s.calls = append(s.calls, rec)
		return observation{}, err
	}
	rec.Result = &c.result
	rec.Outcome = string(checkpoint.OutcomeSucceeded)
	if !c.result.OK {
		rec.Outcome = string(checkpoint.OutcomeFailed)
	}
	s.calls = append(s.calls, rec)
	s.traceResult(call, c.result, c.truncated)
	s.emitEvent(Event{Type: EventToolResult, Call: &call, Result: &c.result})
	return observationOf(call, c.result), nil
}

type execOutcome struct {
	res port.ToolResult
	err error
}

// dispatch runs the executor raced against the run signal and the dispatch
// guard. An error return ends the run; the outcome stays unknown.
func (s *session) dispatch(c *callState) (port.ToolResult, error) {
	call := c.call
	timeoutMs := requestedTimeoutMs(call.Arguments)
	guardMs := catalog.DispatchGuardMs(timeoutMs)
	if timeoutMs == 0 {
		timeoutMs = catalog.DefaultToolTimeoutMs
	}
	tc := port.ToolContext{RunID: s.runID, TaskID: s.req.TaskID, Mode: s.req.ModeOrDefault(), ToolCallID: call.ToolCallID,
		IdempotencyKey: c.idempotencyKey, TimeoutMs: timeoutMs}
	callCtx, cancelCall := context.WithCancel(s.ctx)
	defer cancelCall()
	s.activeToolCalls++
	defer func() { s.activeToolCalls-- }()
	start := s.deps.Clock.Now()
	done := make(chan execOutcome, 1)
	go func() {
		var out execOutcome
		out.err = safeCall(func() error {
			var e error
			out.res, e = s.deps.Tools.Execute(callCtx, call, tc)
			return e
		})
		done <- out
	}()
	fired := make(chan struct{})
	stop := s.deps.Timers.AfterFunc(time.Duration(guardMs)*time.Millisecond, func() { close(fired) })
	defer stop()
	timedOut := func() error {
		return newError(CodeToolTimeout, "Tool %s did not return within %dms.", call.Name, guardMs)
	}
	var out execOutcome
	select {
	case out = <-done:
	case <-fired:
		return port.ToolResult{}, timedOut()
	case <-s.ctx.Done():
		out.err = s.abortReason()
	}
	if out.err == nil {
		// The clock port may have moved past a timer that the wall clock
		// did not fire (a fake clock): the earlier of the guard and the run
		// deadline wins, as the earlier timer would have.
		now, guardAt := s.deps.Clock.Now(), start+int64(guardMs)
		switch {
		case now >= guardAt && guardAt <= s.deadline:
			return port.ToolResult{}, timedOut()
		case now >= s.deadline:
			out.err = newError(CodeDeadlineExceeded, "AI Coder run deadline exceeded.")
			s.cancel(out.err)
		}
	}
	if out.err != nil {
		// Core fault: an executor error after dispatch becomes an ordinary
		// failed result instead of an unknown outcome.
		if faults.On(faults.UnknownOutcomeAsFailure) && s.ctx.Err() == nil {
			return synthetic(c.expected, syntheticResult{code: CodeToolExecution, message: errText(out.err),
				summary: call.Name + " failed.", content: errText(out.err)}), nil
		}
		s.ev.recordOutcome(call.ToolCallID, checkpoint.OutcomeUnknown)
		s.ev.addOpenProblem("Tool " + call.Name + " failed before returning a structured result; its side-effect outcome is unknown.")
		if s.ctx.Err() != nil {
			return port.ToolResult{}, s.abortReason()
		}
		return port.ToolResult{}, newError(CodeToolExecution, "%s failed before returning a structured result; side-effect outcome is unknown: %s", call.Name, errText(out.err))
	}
	return out.res, nil
}

func errText(err error) string {
	var pe *port.Error
	if errors.As(err, &pe) {
		return pe.Message
	}
	return err.Error()
}

// afterDispatch is RUNTIME §15 steps 13–18.
func (s *session) afterDispatch(c *callState) error {
	r := c.result
	check := func() error {
		envelope := r
		// Core fault: a failed result's effects are not checked.
		if faults.On(faults.EffectsAcceptOnFailedResult) && !r.OK && r.Effects != nil {
			envelope.Effects, envelope.EffectsAuthority = nil, ""
		}
		if err := effects.CheckEnvelope(envelope); err != nil {
			return err
		}
		// Core fault: the result's canonical ID is not compared.
		if !faults.On(faults.EffectsSkipIdentityCheck) {
			if err := effects.CheckIdentity(r, c.call.Name, c.expected); err != nil {
				return err
			}
		}
		return effects.CheckMode(r, s.req.ModeOrDefault())
	}
	if err := check(); err != nil {
		return s.unknownOutcome(c, err)
	}
	bounded, truncated, err := s.boundOutput(c.result)
	if err != nil {
		return s.unknownOutcome(c, err)
	}
	c.result, c.truncated = bounded, truncated
	if err := s.checkControl(); err != nil {
		return err
	}
	if c.result.OK {
		s.ev.recordOutcome(c.call.ToolCallID, checkpoint.OutcomeSucceeded)
	} else {
		s.ev.recordOutcome(c.call.ToolCallID, checkpoint.OutcomeFailed)
	}
	if err := s.applyEffects(c); err != nil {
		var re *Error
		if errors.As(err, &re) && re.Code != CodeToolExecution {
			return err
		}
		return s.unknownOutcome(c, err)
	}
	s.afterResult(c)
	return nil
}

// unknownOutcome records a post-dispatch failure as a durable unknown
// side-effect outcome (RUNTIME §15, DECISIONS 66).
func (s *session) unknownOutcome(c *callState, err error) error {
	s.ev.recordOutcome(c.call.ToolCallID, checkpoint.OutcomeUnknown)
	problem := "Tool " + c.call.Name + " returned after a possible side effect, but its evidence could not be durably applied; outcome is unknown."
	s.ev.addOpenProblem(problem)
	msg := err.Error()
	var ee *effects.Error
	var re *Error
	if errors.As(err, &ee) {
		msg = ee.Message
	} else if errors.As(err, &re) {
		msg = re.Message
	}
	return newError(CodeToolExecution, "%s %s", problem, msg)
}

// traceResult emits the tool_result trace event (RUNTIME §26.3).
func (s *session) traceResult(call port.ToolCall, r port.ToolResult, truncated bool) {
	var code any
	if r.Error != nil {
		code = r.Error.Code
	}
	s.trace.emit(s.ctx, port.TraceToolResult, map[string]any{
		"canonicalToolId": r.CanonicalToolID, "errorCode": code, "observationKind": effects.ObservationKind(r),
		"ok": r.OK, "summary": canon.CutUTF16(checkpoint.Redact(r.Summary), 512), "toolCallId": call.ToolCallID, "truncated": truncated,
	})
}

func observationOf(call port.ToolCall, r port.ToolResult) observation {
	return observation{ArtifactRef: r.ArtifactRef, Call: call, Content: r.Content, Failed: !r.OK,
		Kind: effects.ObservationKind(r), Summary: r.Summary, Trust: r.Trust}
}
