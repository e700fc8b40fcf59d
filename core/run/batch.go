package run

import (
	"cmp"
	"errors"
	"slices"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/faults"
	"github.com/galaxy-stack/conform/core/port"
)

// preparedCall is a call that passed batch preflight.
type preparedCall struct {
	call          port.ToolCall
	argumentsHash string
}

// preflight checks a whole batch before anything is dispatched (RUNTIME §13,
// DECISIONS 6 and 7: no alias table; unknown names fail closed).
func (s *session) preflight(calls []port.ToolCall, roundSet *port.ToolSet) ([]preparedCall, error) {
	if badCallIDs(calls) {
		return nil, newError(CodeInvalidModelStream, "Model returned duplicate or empty toolCallId values.")
	}
	// Core fault: names are not checked against the round's definitions.
	if !faults.On(faults.BatchSkipInactiveCheck) {
		for _, c := range calls {
			if !slices.ContainsFunc(roundSet.Definitions, func(d port.ToolDefinition) bool { return d.Function.Name == c.Name }) {
				return nil, newError(CodeInvalidModelStream, "Tool %s was not active in the registry snapshot shown to the model for this round.", c.Name)
			}
		}
	}
	// Core fault: ids used in earlier rounds pass preflight.
	if !faults.On(faults.BatchAllowReusedIDs) {
		for _, c := range calls {
			if s.ev.seen[c.ToolCallID] {
				return nil, newError(CodeInvalidModelStream, "toolCallId %s was already used in this run.", c.ToolCallID)
			}
		}
	}
	// Core fault: the batch as a whole is not checked against the budget.
	if s.toolCalls+len(calls) > s.budget.MaxToolCalls && !faults.On(faults.BatchSkipBudgetCheck) {
		return nil, newError(CodeMaxToolCalls, "AI Coder reached maxToolCalls=%d.", s.budget.MaxToolCalls)
	}
	out := make([]preparedCall, 0, len(calls))
	for _, c := range calls {
		h, err := argumentsHash(c.Arguments)
		if err != nil {
			return nil, newError(CodeInvalidModelStream, "Tool arguments are not canonical JSON: %s", err.Error())
		}
		out = append(out, preparedCall{call: c, argumentsHash: h})
	}
	return out, nil
}

// badCallIDs reports whether calls hold a blank or duplicate toolCallId:
// the check of a model round (RUNTIME §12.2) and of batch preflight (§13
// step 1).
func badCallIDs(calls []port.ToolCall) bool {
	ids := map[string]bool{}
	for _, c := range calls {
		dup := ids[c.ToolCallID]
		// Core fault: a duplicate id within one round passes.
		if faults.On(faults.BatchAllowDuplicateIDs) {
			dup = false
		}
		if canon.IsBlank(c.ToolCallID) || dup {
			return true
		}
		ids[c.ToolCallID] = true
	}
	return false
}

func argumentsHash(args map[string]any) (string, error) {
	if args == nil {
		return canon.Hash(map[string]any{})
	}
	return canon.Hash(args)
}

// runBatch preflights and dispatches one round's calls sequentially in
// emitted order, with the stop policy of RUNTIME §14.
func (s *session) runBatch(calls []port.ToolCall, roundSet *port.ToolSet) ([]observation, error) {
	prepared, err := s.preflight(calls, roundSet)
	if err != nil {
		return nil, err
	}
	// Core fault: the batch runs in reverse of its emitted order.
	if faults.On(faults.BatchDispatchReversed) {
		slices.Reverse(prepared)
	}
	var obs []observation
	var unknown error
	for i, pc := range prepared {
		o, err := s.executeGuarded(pc, roundSet)
		if err != nil {
			// Core fault: an unknown outcome does not stop the batch; the
			// run fails only after the remaining calls ran.
			var re *Error
			if faults.On(faults.BatchContinueAfterUnknownOutcome) && errors.As(err, &re) && re.Code == CodeToolExecution {
				unknown = cmp.Or(unknown, err)
				continue
			}
			return nil, cmp.Or(unknown, err)
		}
		// Core fault: a structured failure stops the batch and the run.
		if faults.On(faults.BatchStopAfterFailedResult) && o.Failed {
			return nil, cmp.Or[error](unknown, newError(CodeToolExecution, "%s returned a failed result.", pc.call.Name))
		}
		obs = append(obs, o)
		// Core fault: a pending approval does not block the rest of the
		// batch.
		if s.pendingCount() > 0 && i < len(prepared)-1 && !faults.On(faults.BatchContinueAfterPendingApproval) {
			for _, rest := range prepared[i+1:] {
				obs = append(obs, s.blockForApproval(rest, roundSet))
			}
			break
		}
	}
	if unknown != nil {
		return nil, unknown
	}
	return obs, nil
}

// blockForApproval answers a call that may not run while an earlier call of
// its batch awaits approval (RUNTIME §14, §8.2).
func (s *session) blockForApproval(pc preparedCall, roundSet *port.ToolSet) observation {
	s.ev.seen[pc.call.ToolCallID] = true
	s.toolCalls++
	s.ev.pushToolCall(checkpoint.ToolCallRecord{ArgumentsHash: pc.argumentsHash, Name: pc.call.Name, Outcome: checkpoint.OutcomeFailed, ToolCallID: pc.call.ToolCallID})
	res := synthetic(roundSet.CanonicalToolIDs[pc.call.Name], syntheticBatchBlocked)
	s.calls = append(s.calls, CallRecord{Call: pc.call, CanonicalID: res.CanonicalToolID, Result: &res, Outcome: string(checkpoint.OutcomeFailed)})
	s.traceResult(pc.call, res, false)
	s.emitEvent(Event{Type: EventToolResult, Call: &pc.call, Result: &res})
	return observationOf(pc.call, res)
}

// syntheticResult describes a result the runtime answers without dispatch
// (RUNTIME §8.2).
type syntheticResult struct {
	code, message, summary, content string
	retryable                       bool
}

var syntheticBatchBlocked = syntheticResult{
	code:      CodeBatchBlockedByApproval,
	message:   "Tool call was not executed while an earlier batch call awaits approval.",
	summary:   "Tool call was not executed because an earlier batch call awaits approval.",
	content:   "This call was not executed because an earlier call in the same batch is awaiting host approval.",
	retryable: true,
}

// synthetic builds the trusted tool-kind failure of a synthetic result.
func synthetic(canonicalID string, r syntheticResult) port.ToolResult {
	// The members are in canonical order already, so the canonical form is
	// the original's text.
	content := stableJSON(canon.Object{
		{Key: "error", Value: canon.Object{{Key: "code", Value: r.code}, {Key: "message", Value: r.content}, {Key: "retryable", Value: r.retryable}}},
		{Key: "ok", Value: false},
	})
	return port.ToolResult{
		OK: false, CanonicalToolID: canonicalID, Content: content, Summary: r.summary, Trust: "trusted",
		Error: &port.ToolError{Code: r.code, Message: r.message, Retryable: r.retryable},
	}
}
