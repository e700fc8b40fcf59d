package approval

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/port"
)

// DefaultTimeoutMs is how long the policy waits for an approver unless
// WithTimeout says otherwise.
const DefaultTimeoutMs = 30000

// DefaultTransports are the transports a policy allows unless
// WithTransports says otherwise.
func DefaultTransports() []string { return []string{catalog.TransportNative, catalog.TransportCore} }

// A Policy decides whether tool calls may run. It is safe for concurrent
// use; its configuration is fixed at construction.
type Policy struct {
	profile     Profile
	approver    Approver
	timeoutMs   int64
	permissions []string
	transports  []string
	clock       port.Clock
}

// An Option configures a Policy.
type Option func(*Policy)

// WithApprover sets the approver asked when approval is required. Without
// one, such calls are denied with deny_approval_unavailable.
func WithApprover(a Approver) Option { return func(p *Policy) { p.approver = a } }

// WithTimeout sets the longest wait for an approver, in milliseconds; values
// below 1 count as 1. The default is DefaultTimeoutMs.
func WithTimeout(ms int64) Option { return func(p *Policy) { p.timeoutMs = max(1, ms) } }

// WithPermissions sets the granted permissions (for example "fs.workspace",
// "process.execute"). The default grants none.
func WithPermissions(perms ...string) Option {
	return func(p *Policy) { p.permissions = slices.Clone(perms) }
}

// WithTransports sets the allowed tool transports. The default is
// DefaultTransports.
func WithTransports(transports ...string) Option {
	return func(p *Policy) { p.transports = slices.Clone(transports) }
}

// WithClock sets the clock deadlines are compared with. The default is the
// wall clock. The approval wait itself is measured in real time.
func WithClock(c port.Clock) Option { return func(p *Policy) { p.clock = c } }

// NewPolicy returns a policy for the approval profile profile, or an error
// when the profile is unknown.
func NewPolicy(profile Profile, opts ...Option) (*Policy, error) {
	if _, err := ParseProfile(string(profile)); err != nil {
		return nil, err
	}
	p := &Policy{profile: profile, timeoutMs: DefaultTimeoutMs, transports: DefaultTransports(), clock: wallClock{}}
	for _, o := range opts {
		o(p)
	}
	return p, nil
}

// Profile returns the policy's approval profile.
func (p *Policy) Profile() Profile { return p.profile }

type wallClock struct{}

func (wallClock) Now() int64 { return time.Now().UnixMilli() }

// A Call is one tool call submitted to the policy.
type Call struct {
	// Tool is the called tool's descriptor.
	Tool catalog.Descriptor
	// Arguments are the call's arguments as the model sent them.
	Arguments map[string]any
	// Context is the call's tool context; RunID, ToolCallID and Mode are used.
	Context port.ToolContext
	// Deadline is the run deadline in Unix milliseconds on the policy's
	// clock; 0 means no deadline.
	Deadline int64
}

// Decide applies the policy to call; see the package documentation for the
// order of checks. It blocks while an approver is asked, at most the
// approval timeout or the time left before the deadline, and returns early
// when ctx is canceled.
func (p *Policy) Decide(ctx context.Context, call Call) Decision {
	tool, tc := call.Tool, call.Context
	if ctx.Err() != nil || p.expired(call.Deadline) {
		return deny(DenyCanceled, fmt.Sprintf("run %q was canceled or reached its deadline before %s could run", tc.RunID, tool.ID), "")
	}
	if !modeAllows(tool, tc.Mode) {
		return deny(DenyRunMode, fmt.Sprintf("task mode %q does not allow the %s tool %s", tc.Mode, tool.Mutability, tool.ID), "")
	}
	var missing []string
	for _, perm := range tool.Permissions {
		if !slices.Contains(p.permissions, perm) {
			missing = append(missing, perm)
		}
	}
	if len(missing) > 0 {
		return deny(DenyMissingPermission, fmt.Sprintf("tool %s needs the permission %s, which is not granted", tool.ID, strings.Join(missing, ", ")), "")
	}
	if !slices.Contains(p.transports, tool.Transport) {
		return deny(DenyTransport, fmt.Sprintf("transport %q of %s has no trusted policy adapter", tool.Transport, tool.ID), "")
	}
	if !Requires(p.profile, tool) {
		return Decision{Allowed: true, Code: AutoApprove,
			Reason: fmt.Sprintf("profile %s allows %s (%s risk, %s)", p.profile, tool.ID, tool.Risk, tool.Mutability)}
	}
	reason := p.askReason(tool)
	requestID := tc.RunID + ":" + tc.ToolCallID
	if p.approver == nil {
		return deny(DenyApprovalUnavailable, reason+"; the host offers no approver, so the call is denied", requestID)
	}
	wait := p.timeoutMs
	if call.Deadline != 0 {
		remaining := call.Deadline - p.clock.Now()
		if remaining <= 0 {
			return deny(DenyCanceled, reason+"; the run reached its deadline", requestID)
		}
		wait = min(wait, remaining)
	}
	req := Request{
		ApprovalProfile: p.profile,
		ArgumentsValue:  call.Arguments,
		Reason:          reason,
		RequestID:       requestID,
		SuggestedScope:  ScopeOnce,
		Tool:            tool,
	}
	return p.ask(ctx, req, tc, time.Duration(wait)*time.Millisecond)
}

func (p *Policy) expired(deadline int64) bool {
	return deadline != 0 && p.clock.Now() >= deadline
}

func (p *Policy) askReason(tool catalog.Descriptor) string {
	detail := tool.Risk + " risk"
	if tool.Mutability == catalog.MutabilityExternalSideEffect {
		detail = "external side effect"
	}
	return fmt.Sprintf("approval profile %s requires confirmation of %s (%s)", p.profile, tool.ID, detail)
}

type answer struct {
	decision HostDecision
	err      error
}

// ask sends req to the approver and waits for its answer, ctx's
// cancellation or the timer, whichever comes first. The approver's context
// is canceled when the wait ends.
func (p *Policy) ask(ctx context.Context, req Request, tc port.ToolContext, wait time.Duration) Decision {
	reqCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	answers := make(chan answer, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				answers <- answer{err: fmt.Errorf("approver panicked: %v", r)}
			}
		}()
		d, err := p.approver.Approve(reqCtx, req, tc)
		answers <- answer{decision: d, err: err}
	}()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	var a answer
	select {
	case <-ctx.Done():
		return deny(DenyCanceled, req.Reason+"; the approval was canceled", req.RequestID)
	case <-timer.C:
		return deny(DenyApprovalTimeout, req.Reason+"; the approval timed out", req.RequestID)
	case a = <-answers:
	}
	if ctx.Err() != nil {
		// The run was canceled while the answer arrived; cancellation wins.
		return deny(DenyCanceled, req.Reason+"; the approval was canceled", req.RequestID)
	}
	if a.err != nil {
		var pe *PortError
		if errors.As(a.err, &pe) {
			return deny(DenyApprovalError, fmt.Sprintf("%s; the host answered %s: %s", req.Reason, pe.Code, pe.Message), req.RequestID)
		}
		return deny(DenyApprovalError, fmt.Sprintf("%s; the host approver failed (%s)", req.Reason, CodeCallbackThrown), req.RequestID)
	}
	d := a.decision
	if !d.Approved {
		reason := d.Reason
		if reason == "" {
			reason = "the host denied approval for " + req.Tool.ID
		}
		return Decision{Code: DeniedByHost, Reason: reason, RequestID: req.RequestID, Scope: d.Scope}
	}
	reason := d.Reason
	if reason == "" {
		reason = req.Reason
	}
	return Decision{Allowed: true, Code: ApprovedByHost, Reason: reason, RequestID: req.RequestID, Scope: d.Scope}
}

func deny(code Code, reason, requestID string) Decision {
	return Decision{Code: code, Reason: reason, RequestID: requestID}
}
