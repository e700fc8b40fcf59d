package reference

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/galaxy-stack/conform/core/approval"
	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/schema"
	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
	"github.com/galaxy-stack/conform/hosts/wire"
)

// call is one tool call being executed.
type call struct {
	p        wire.ExecuteParams
	desc     catalog.Descriptor
	args     map[string]any
	deadline time.Time // zero when the call has no timeout
}

// newCall is the call of p to the tool desc with its decoded args, and ctx
// bounded by the call's timeout (p.TimeoutMs, when set); cancel releases it.
func newCall(ctx context.Context, p wire.ExecuteParams, desc catalog.Descriptor, args map[string]any) (*call, context.Context, context.CancelFunc) {
	c := &call{p: p, desc: desc, args: args}
	if p.TimeoutMs <= 0 {
		return c, ctx, func() {}
	}
	c.deadline = time.Now().Add(time.Duration(p.TimeoutMs) * time.Millisecond)
	ctx, cancel := context.WithDeadline(ctx, c.deadline)
	return c, ctx, cancel
}

// decode decodes the call's arguments, already validated, into v.
func (c *call) decode(v any) error {
	if err := json.Unmarshal(c.p.Arguments, v); err != nil {
		return &toolError{Code: "INVALID_TOOL_ARGUMENTS", Message: err.Error()}
	}
	return nil
}

// outcome is what a tool produced: the model-visible output (a value whose
// JSON form keeps the documented key order) and the host-attested effects.
type outcome struct {
	Output      any
	Summary     string
	Trust       string
	Effects     *port.Effects
	ArtifactRef string
}

// toolError is a typed failure of a tool: an ordinary ok=false result.
type toolError struct {
	Code      string
	Message   string
	Retryable bool
	Status    *int // the HTTP status behind an external failure, if any
}

func (e *toolError) Error() string { return e.Code + ": " + e.Message }

// unknownOutcome says the call's side effects are unknown: it is answered
// with wire.ErrUnknownOutcome, never as a retryable result.
type unknownOutcome struct{ reason string }

func (e *unknownOutcome) Error() string { return e.reason }

func unknownf(format string, args ...any) error {
	return &unknownOutcome{reason: fmt.Sprintf(format, args...)}
}

// toolFunc runs one canonical tool.
type toolFunc func(ctx context.Context, s *session, c *call) (outcome, error)

// tools are the canonical tools the reference host implements.
var tools = map[string]toolFunc{
	"catalog.search":   searchCatalog,
	"command.run":      runCommand,
	"git.exec":         execGit,
	"project.detect":   detectProject,
	"project.validate": validateProject,
	"research.fetch":   fetchURL,
	"research.search":  searchWeb,
	"task.checkpoint":  updateCheckpoint,
	"workspace.edit":   editFile,
	"workspace.glob":   globFiles,
	"workspace.grep":   searchText,
	"workspace.list":   listFiles,
	"workspace.read":   readFile,
	"workspace.write":  writeFile,
}

// readOnlyCodes are the port codes a tool failure may carry as an ordinary
// result (LAB §20.2 step 5).
var readOnlyCodes = map[string]bool{
	"ALREADY_EXISTS": true, "CANCELED": true, "CONFLICT": true, "DEADLINE_EXCEEDED": true,
	"INVALID_INPUT": true, "IO_ERROR": true, "LIMIT_EXCEEDED": true, "NOT_FOUND": true,
	"PERMISSION_DENIED": true, "PRECONDITION_FAILED": true, "UNAVAILABLE": true, "UNSUPPORTED": true,
}

// execute answers tool/execute (LAB §20.2): route, validate, honour the
// idempotency key, apply mode and approval policy, dispatch, validate the
// output and build the CONTRACTS §7.5 envelope.
func (s *session) execute(ctx context.Context, p wire.ExecuteParams) (port.ToolResult, error) {
	res, err := s.executeCall(ctx, p)
	if err == nil && !res.OK {
		res = s.failureFaults(res, p.CallID)
		res = s.failureInspected(res, p.Arguments)
	}
	if err == nil {
		res = s.answeredFault(res, p.CallID)
	}
	return res, err
}

func (s *session) executeCall(ctx context.Context, p wire.ExecuteParams) (port.ToolResult, error) {
	if p.ModelName == catalog.ProjectFormatModelName && slices.Contains(s.extensions, catalog.FlagProjectFormat) {
		return s.executeFormat(ctx, p)
	}
	desc, ok := s.resolve(p.ModelName)
	if !ok {
		return errorResult(p.ModelName, p.CallID, &toolError{Code: "UNKNOWN_TOOL",
			Message: fmt.Sprintf("Tool '%s' is not active in this turn.", p.ModelName)}, nil), nil
	}
	var args map[string]any
	if err := json.Unmarshal(p.Arguments, &args); err != nil || args == nil {
		return errorResult(desc.ID, p.CallID, &toolError{Code: "INVALID_TOOL_ARGUMENTS", Message: "arguments must be a JSON object"}, nil), nil
	}
	if !s.faults.SkipArgumentValidation {
		if err := s.validateInput(desc, args); err != nil {
			return errorResult(desc.ID, p.CallID, &toolError{Code: "INVALID_TOOL_ARGUMENTS", Message: violations(err)}, nil), nil
		}
	}
	keyed := desc.Idempotency == catalog.IdempotencyWithKey && p.IdempotencyKey != "" && !s.faults.IgnoreIdempotencyKey
	if keyed {
		if r, ok := s.idem.get(s.idemTool(desc.ID), p.IdempotencyKey); ok {
			return r, nil
		}
	}
	c, ctx, cancel := newCall(ctx, p, desc, args)
	defer cancel()
	var res port.ToolResult
	var err error
	if s.faults.ExecuteBeforeApproval || s.writeBeforePolicy(desc) {
		res, err = s.dispatch(ctx, c, "not_required")
		if err == nil {
			if d := s.decide(ctx, c); !d.Allowed {
				return denied(desc.ID, p.CallID, d), nil
			}
		}
	} else {
		d := s.decide(ctx, c)
		if !d.Allowed {
			return denied(desc.ID, p.CallID, d), nil
		}
		approvalEffect := "not_required"
		if d.Code == approval.ApprovedByHost {
			approvalEffect = "granted"
		}
		res, err = s.dispatch(ctx, c, approvalEffect)
	}
	if err != nil {
		return port.ToolResult{}, err
	}
	if keyed && res.OK {
		if err := s.idem.put(s.idemTool(desc.ID), p.IdempotencyKey, res); err != nil {
			return port.ToolResult{}, wire.UnknownOutcomeError(desc.ID, "the idempotency record could not be saved: "+err.Error())
		}
	}
	return res, nil
}

// dispatch runs the tool and turns what it returned into an envelope or
// an unknown outcome.
func (s *session) dispatch(ctx context.Context, c *call, approvalEffect string) (port.ToolResult, error) {
	id := c.desc.ID
	fn, ok := tools[id]
	if !ok {
		return errorResult(id, c.p.CallID, &toolError{Code: "UNAVAILABLE", Message: fmt.Sprintf("%s is not backed by this host.", id)}, nil), nil
	}
	out, err := fn(ctx, s, c)
	if err != nil && s.faults.FailureAsUnknownOutcome {
		return port.ToolResult{}, wire.UnknownOutcomeError(id, "the tool failed: "+err.Error())
	}
	if err != nil {
		var te *toolError
		var uo *unknownOutcome
		switch {
		case errors.As(err, &te):
			return errorResult(id, c.p.CallID, te, s.failedEffects(c)), nil
		case errors.As(err, &uo):
			return s.unknownResult(c, uo.reason)
		}
		if code := portCode(err); code != "" && c.desc.Mutability == catalog.MutabilityRead {
			return errorResult(id, c.p.CallID, &toolError{Code: code, Message: portMessage(err), Retryable: code == "IO_ERROR" || code == "UNAVAILABLE"}, nil), nil
		}
		return s.unknownResult(c, "the adapter failed after dispatch: "+err.Error())
	}
	content, encErr := compactJSON(out.Output)
	if !s.faults.SkipOutputValidation && s.validatesOutput(c.desc) {
		if err := s.validateOutput(c.desc, out.Output, content, encErr); err != nil {
			return port.ToolResult{}, wire.UnknownOutcomeError(id, "the output does not satisfy the output schema: "+violations(err))
		}
	}
	if encErr != nil {
		return port.ToolResult{}, wire.UnknownOutcomeError(id, "the output does not encode: "+encErr.Error())
	}
	eff := out.Effects
	if eff == nil {
		eff = &port.Effects{}
	}
	eff.Approval = approvalEffect
	tail := 0.25
	res := port.ToolResult{
		OK: true, CanonicalToolID: id, Content: content, Summary: out.Summary, Trust: out.Trust,
		ArtifactRef:      out.ArtifactRef,
		OutputLimits:     &port.OutputLimits{MaxBytes: c.desc.MaxOutputBytes, MaxTokens: c.desc.MaxOutputTokens, TailFraction: &tail},
		Effects:          eff,
		EffectsAuthority: effects.AuthorityHost,
	}
	if s.faults.WrongCanonicalToolID {
		res.CanonicalToolID = c.p.ModelName
	}
	if caps, ok := s.profile[id]; ok && !s.trustsPageEffects(id) && !s.skipsEvidenceCheck() {
		if err := effects.CheckCapabilities(res, caps); err != nil {
			return port.ToolResult{}, wire.UnknownOutcomeError(id, "the effects exceed the effect profile: "+err.Error())
		}
	}
	return res, nil
}

// decide applies the mode and approval policy before any side effect.
// Repository-declared validation scripts are executable code: without a
// verified containment backend they need explicit approval whatever the
// profile's threshold.
func (s *session) decide(ctx context.Context, c *call) approval.Decision {
	if d, ok := s.researchApproval(c); ok {
		return d
	}
	ac := approval.Call{Tool: c.desc, Arguments: c.args, Context: port.ToolContext{
		RunID: c.p.Context.RunID, TaskID: c.p.Context.TaskID, Mode: c.p.Context.Mode,
		ToolCallID: c.p.CallID, IdempotencyKey: c.p.IdempotencyKey, TimeoutMs: c.p.TimeoutMs,
	}}
	d := s.policy.Decide(ctx, ac)
	if d.Allowed && d.Code == approval.AutoApprove && c.desc.ID == "project.validate" && !s.containmentVerified() && !s.faults.ValidateWithoutApproval && !s.scriptsUnguarded(c) {
		d = s.strict.Decide(ctx, ac)
	}
	d = s.approvalOutcome(d)
	s.noteResearchApproval(c, d)
	s.rememberValidateGrant(c, d)
	return d
}

func (s *session) containmentVerified() bool {
	return s.runner != nil && s.runner.Containment().Verified
}

// askHarness is the approval port: it sends approval/request to the
// harness over the connection of the call being executed.
func (s *session) askHarness(ctx context.Context, req approval.Request, tc port.ToolContext) (approval.HostDecision, error) {
	args, err := json.Marshal(req.ArgumentsValue)
	if err != nil {
		return approval.HostDecision{}, err
	}
	timeout := approval.DefaultTimeoutMs
	if s.params.ApprovalTimeoutMs > 0 {
		timeout = s.params.ApprovalTimeoutMs
	}
	if dl, ok := ctx.Deadline(); ok {
		if left := int(time.Until(dl).Milliseconds()); left < timeout {
			timeout = max(left, 1)
		}
	}
	d, err := s.requestApproval(ctx, s.approvalFaults(wire.ApprovalParams{
		RequestID: req.RequestID, CanonicalToolID: req.Tool.ID, ModelName: req.Tool.ModelName,
		Arguments: args, Risk: req.Tool.Risk, Mutability: req.Tool.Mutability,
		ApprovalProfile: string(req.ApprovalProfile), Reason: req.Reason, SuggestedScope: string(req.SuggestedScope),
		TimeoutMs: timeout,
		Context:   wire.ApprovalContext{RunID: tc.RunID, TaskID: tc.TaskID, ToolCallID: tc.ToolCallID, Mode: tc.Mode},
	}, tc))
	if err != nil {
		if errors.Is(err, wire.ErrMethodNotFound) {
			s.noApprover.Store(true)
			return approval.HostDecision{}, &approval.PortError{Code: port.CodeApprovalUnavailable, Message: "The harness answers no approval requests."}
		}
		if ctx.Err() != nil {
			return approval.HostDecision{}, ctx.Err()
		}
		return approval.HostDecision{}, err
	}
	return approval.HostDecision{Approved: d.Approved, DecidedAt: s.now().Format(time.RFC3339Nano), Reason: d.Reason, Scope: approval.Scope(d.Scope)}, nil
}

// denied is the result of a call the policy refused: the decision code
// upper-cased, the policy's reason, and the denial effect.
func denied(id, callID string, d approval.Decision) port.ToolResult {
	eff := &port.Effects{Approval: effects.ApprovalDenied, ApprovalRequestID: d.RequestID}
	return errorResult(id, callID, &toolError{Code: strings.ToUpper(string(d.Code)), Message: d.Reason}, eff)
}

// errorResult builds an ok=false envelope (LAB §20.2 step 8).
func errorResult(id, callID string, e *toolError, eff *port.Effects) port.ToolResult {
	te := &port.ToolError{Code: e.Code, Message: e.Message, Retryable: e.Retryable, Status: e.Status}
	content, _ := compactJSON(struct {
		OK         bool            `json:"ok"`
		Error      *port.ToolError `json:"error"`
		ToolCallID string          `json:"toolCallId"`
	}{false, te, callID})
	r := port.ToolResult{OK: false, CanonicalToolID: id, Content: content, Summary: e.Message, Trust: "trusted", Error: te}
	if eff != nil {
		r.Effects, r.EffectsAuthority = eff, effects.AuthorityHost
	}
	return r
}

// compactJSON encodes v as JavaScript's JSON.stringify would: compact,
// without HTML escaping.
func compactJSON(v any) (string, error) {
	b, err := canon.Stringify(v)
	return string(b), err
}

// violations joins the messages of a schema failure with spaces.
func violations(err error) string {
	var ve *schema.ValueError
	if errors.As(err, &ve) {
		parts := make([]string, len(ve.Violations))
		for i, v := range ve.Violations {
			parts[i] = v.String() + "."
		}
		return strings.Join(parts, " ")
	}
	return err.Error()
}

// portCode returns the port code of a workspace or command failure (a
// [hosterr.Error]), or "".
func portCode(err error) string {
	var he *hosterr.Error
	if errors.As(err, &he) {
		return string(he.Code)
	}
	if errors.Is(err, context.Canceled) {
		return "CANCELED"
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "DEADLINE_EXCEEDED"
	}
	return ""
}

func portMessage(err error) string {
	var he *hosterr.Error
	if errors.As(err, &he) {
		return he.Message
	}
	return err.Error()
}

// typed turns a known port failure into a typed tool error.
func typed(err error) error {
	if code := portCode(err); code != "" && readOnlyCodes[code] {
		return &toolError{Code: code, Message: portMessage(err), Retryable: code == "IO_ERROR" || code == "UNAVAILABLE"}
	}
	return err
}
