package reference

import "github.com/galaxy-stack/conform/core/approval"

// approvalOutcome turns the policy's decision into the one the host
// answers with. The policy sees every failure of the approval port as
// deny_approval_error; a harness that answers approval/request with
// "method not found" has no approver at all, which CONTRACTS §10.2 names
// deny_approval_unavailable. The ApprovalTimeoutApproves and
// MissingApproverApproves faults turn those denials into approvals.
func (s *session) approvalOutcome(d approval.Decision) approval.Decision {
	if d.Code == approval.DenyApprovalError && s.noApprover.Load() {
		d.Code = approval.DenyApprovalUnavailable
		d.Reason += "; the harness answers no approval requests, so no approver is configured and the call is denied"
	}
	switch {
	case d.Code == approval.DenyApprovalTimeout && s.faults.ApprovalTimeoutApproves,
		d.Code == approval.DenyApprovalUnavailable && s.faults.MissingApproverApproves:
		d.Allowed, d.Code = true, approval.ApprovedByHost
	}
	return d
}
