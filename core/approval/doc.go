// Package approval is the fail-closed approval policy a host applies before
// any side effect of a tool call (CONTRACTS §10): task-mode, permission and
// transport checks, the risk thresholds of the three approval profiles, and
// the correlated, cancellable request to an approver.
//
// # Example
//
//	policy, err := approval.NewPolicy(approval.Balanced,
//		approval.WithPermissions("fs.workspace", "process.execute"),
//		approval.WithApprover(approval.ApproverFunc(ask)),
//		approval.WithClock(clock),
//	)
//	d := policy.Decide(ctx, approval.Call{
//		Tool:      descriptor,
//		Arguments: args,
//		Context:   toolContext, // runId, toolCallId, mode, ...
//		Deadline:  deadlineMs,
//	})
//	if !d.Allowed {
//		// refuse the call; d.Code says why (deny_run_mode, denied_by_host, ...)
//	}
//
// # Check order
//
// Decide applies these checks in order and stops at the first that decides:
//
//  1. the context is canceled or the deadline has passed: deny_canceled;
//  2. the tool is not allowed in the task mode (CONTRACTS §3.1,
//     catalog.AllowedInMode), or the mode is unknown: deny_run_mode;
//  3. a descriptor permission is not granted: deny_missing_permission;
//  4. the tool's transport is not allowed: deny_transport;
//  5. the profile does not require approval for the tool: auto_approve;
//  6. no approver is configured: deny_approval_unavailable;
//  7. no time is left before the deadline: deny_canceled;
//  8. the approver is asked and waited for, at most the approval timeout and
//     the time left: deny_canceled when the run is canceled meanwhile,
//     deny_approval_timeout when the wait expires, deny_approval_error when
//     the approver fails or panics, denied_by_host or approved_by_host by its
//     answer.
//
// Only the decision codes are contract; the reason texts are conform's own.
//
// A "pending" approval is not a policy decision: it is the tool-effect value
// approval "pending" with an approvalRequestId (CONTRACTS §7.7), which parks
// the run in waiting_approval until a later result resolves it.
package approval
