package reference

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/prompt"
	"github.com/galaxy-stack/conform/hosts/reference/command"
	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/jsonrpc"
	"github.com/galaxy-stack/conform/hosts/wire/kit"
)

// This file holds the fault seams of the commands and correlation faults:
// what initialize publishes about commands, how a command's exit and a
// cwd refusal are answered, and which call an approval request or a
// failure names. See Faults.

// publishFaults changes the initialize answer r as NoCommandEnvironment,
// UnknownPathStyle, UnlistedCommandRun and CwdAsContainment do.
func (s *session) publishFaults(r *wire.InitializeResult) {
	if s.faults.UnknownPathStyle && r.CommandEnvironment != nil {
		r.CommandEnvironment.Command.PathStyle = prompt.PathUnknown
	}
	if s.faults.NoCommandEnvironment {
		r.CommandEnvironment = nil
	}
	if s.faults.UnlistedCommandRun {
		r.Tools = slices.DeleteFunc(r.Tools, func(id string) bool { return id == prompt.CommandRunID })
		r.CommandEnvironment = nil
	}
	if s.faults.CwdAsContainment && r.Containment != nil && !r.Containment.Active {
		r.Containment.FilesystemWrites = "workspace_only"
	}
}

// exitFault is the failure NonZeroExitAsFailure answers a command that
// exited non-zero with; nil otherwise.
func (s *session) exitFault(res command.Result) error {
	if !s.faults.NonZeroExitAsFailure || res.Status != command.StatusExited || res.ExitCode == nil || *res.ExitCode == 0 {
		return nil
	}
	return &toolError{Code: "IO_ERROR", Message: fmt.Sprintf("The command failed with exit code %d.", *res.ExitCode)}
}

// ranAsPassed is the status of a declared check whose script ended with
// res: status, or "passed" for any script that exited on its own under
// ValidationPassedWhenRan.
func (s *session) ranAsPassed(status string, res command.Result) string {
	if s.faults.ValidationPassedWhenRan && res.Status == command.StatusExited {
		return "passed"
	}
	return status
}

// cwdRefusalFault rewrites a cwd refusal of the runner as the containment
// refusal, as CwdRefusalAsContainment does; other errors pass unchanged.
func (s *session) cwdRefusalFault(err error) error {
	var he *hosterr.Error
	if !s.faults.CwdRefusalAsContainment || !errors.As(err, &he) || he.Code != hosterr.PermissionDenied {
		return err
	}
	return &hosterr.Error{Library: he.Library, Code: hosterr.Unavailable, Message: "Command containment refused the working directory.", Err: he}
}

// correlation is the state of the correlation faults of one session.
type correlation struct {
	mu sync.Mutex
	// first is the session's first approval request, for
	// ApprovalFirstContext.
	first *wire.ApprovalParams
	// last is the call the host answered last, for
	// FailureNamesPreviousCall.
	last string
}

// approvalFaults changes the correlation of approval request p as
// ApprovalFirstContext and ApprovalKeyAsRequestID do.
func (s *session) approvalFaults(p wire.ApprovalParams, tc port.ToolContext) wire.ApprovalParams {
	if s.faults.ApprovalKeyAsRequestID && tc.IdempotencyKey != "" {
		p.RequestID = tc.RunID + ":" + tc.IdempotencyKey
	}
	if s.faults.ApprovalFirstContext {
		s.corr.mu.Lock()
		defer s.corr.mu.Unlock()
		if s.corr.first == nil {
			first := p
			s.corr.first = &first
		}
		p.RequestID, p.Context = s.corr.first.RequestID, s.corr.first.Context
	}
	return p
}

// requestApproval sends approval request p over the connection of the
// call being handled and waits for the answer or ctx's end, as
// kit.RequestApproval does; under CancelNamesCall the $/cancelRequest sent
// when ctx ends names the call ID, so the request itself stays open.
func (s *session) requestApproval(ctx context.Context, p wire.ApprovalParams) (wire.ApprovalDecision, error) {
	conn := jsonrpc.ConnFrom(ctx)
	if !s.faults.CancelNamesCall || conn == nil {
		return kit.RequestApproval(ctx, p)
	}
	type answer struct {
		d   wire.ApprovalDecision
		err error
	}
	answers := make(chan answer, 1)
	go func() {
		// Never canceled itself: it ends with the harness's answer or the
		// connection.
		d, err := kit.RequestApproval(context.WithoutCancel(ctx), p)
		answers <- answer{d, err}
	}()
	select {
	case a := <-answers:
		return a.d, a.err
	case <-ctx.Done():
		_ = conn.Notify(wire.MethodCancel, map[string]any{"id": p.Context.ToolCallID})
		return wire.ApprovalDecision{}, ctx.Err()
	}
}

// answeredFault names, in the content of a failed result res of call
// callID, the call answered before it, as FailureNamesPreviousCall does;
// it records callID as answered.
func (s *session) answeredFault(res port.ToolResult, callID string) port.ToolResult {
	if !s.faults.FailureNamesPreviousCall {
		return res
	}
	s.corr.mu.Lock()
	prev := s.corr.last
	s.corr.last = callID
	s.corr.mu.Unlock()
	if res.OK || res.Error == nil {
		return res
	}
	content, err := compactJSON(struct {
		OK         bool            `json:"ok"`
		Error      *port.ToolError `json:"error"`
		ToolCallID string          `json:"toolCallId"`
	}{false, res.Error, prev})
	if err != nil {
		return res
	}
	res.Content = content
	return res
}
