package matrix

import (
	"github.com/galaxy-stack/conform/matrix/session"
	. "github.com/onsi/gomega"
)

// Item 7: every approval outcome other than a grant leaves the call
// unexecuted and says why, for command.run and a write tool alike. The
// fixtures' oracle checks the marker files are absent and the error codes;
// these checks read the wire: what the host asked, what the harness
// answered, and what the host attested.
var _ = describeItem(7, func(c *TestContext) {
	// refused asserts both calls of a strict-profile scenario asked for
	// approval and were denied with code; answered says what the harness's
	// answers must look like.
	refused := func(prefix, code string, answered func(o *outcome, a approvalAsk)) check {
		return func(o *outcome) {
			run, write := prefix+"-run", prefix+"-write"
			for _, a := range o.askedFor(run, write) {
				answered(o, a)
			}
			o.deniedWith(run, code)
			o.deniedWith(write, code)
		}
	}
	c.scenarios(map[string]check{
		// The harness answered approved=false: catches
		// execute-before-approval (the marker file exists).
		"denied.json": refused("07-denied", "DENIED_BY_HOST", func(o *outcome, a approvalAsk) {
			Expect(a.Answer).NotTo(BeNil(), "%s: the harness did not answer the approval/request for %s", o.File, a.Context.ToolCallID)
			Expect(a.Answer.Approved).To(BeFalse(), "%s: the harness denied %s", o.File, a.Context.ToolCallID)
			Expect(o.Approvals).To(ContainElement(session.Approval{CanonicalToolID: a.CanonicalToolID, ModelName: a.ModelName}),
				"%s: the harness recorded no denial of %s", o.File, a.CanonicalToolID)
		}),
		// The harness has no approver (method not found): catches
		// missing-approver-approves.
		"missing-approver.json": refused("07-missing-approver", "DENY_APPROVAL_UNAVAILABLE", noApprover),
		// Declared scripts without verified containment need approval
		// whatever the profile: catches validate-without-approval.
		"missing-approver-validate.json": func(o *outcome) {
			for _, a := range o.askedFor("07-validate") {
				noApprover(o, a)
			}
			o.deniedWith("07-validate", "DENY_APPROVAL_UNAVAILABLE")
		},
		// The harness never answers: the host must give up after its
		// approval timeout, cancel the request and deny. Catches
		// approval-timeout-approves.
		"timed-out.json": refused("07-timed-out", "DENY_APPROVAL_TIMEOUT", func(o *outcome, a approvalAsk) {
			Expect(a.TimeoutMs).To(BeNumerically(">", 0), "%s: approval/request for %s says timeoutMs %d", o.File, a.Context.ToolCallID, a.TimeoutMs)
			Expect(a.TimeoutMs).To(BeNumerically("<=", 150), "%s: approval/request for %s says timeoutMs %d; initialize asked for 150", o.File, a.Context.ToolCallID, a.TimeoutMs)
			Expect(a.Answer).To(BeNil(), "%s: the silent harness answered %s", o.File, a.Context.ToolCallID)
			Expect(o.Approvals).To(ContainElement(session.Approval{CanonicalToolID: a.CanonicalToolID, ModelName: a.ModelName, Unanswered: true}),
				"%s: the harness recorded no unanswered request for %s", o.File, a.CanonicalToolID)
			Expect(a.Canceled).To(BeTrue(), "%s: the host gave up on the approval of %s without sending $/cancelRequest for it; a host that stops waiting must cancel the request so a late answer cannot grant it", o.File, a.Context.ToolCallID)
		}),
		// A pending approval blocks the rest of the batch: neither the
		// command nor the write reaches the host, nothing asks for their
		// approval, and the paused run keeps the approval pending.
		"pending.json": func(o *outcome) {
			o.dispatched("read_file")
			o.askedFor()
			cp, ok := o.checkpointOf("pause")
			if !ok {
				return
			}
			var pending []string
			for _, p := range cp.PendingApprovals {
				pending = append(pending, p.RequestID)
			}
			Expect(pending).To(Equal([]string{"approval-read-1"}), "%s: the pause checkpoint must keep the unresolved approval approval-read-1 pending", o.File)
		},
	})
})

// noApprover asserts the harness answered the approval request a with
// "method not found", as a harness without an approver does, and
// recorded no decision.
func noApprover(o *outcome, a approvalAsk) {
	Expect(a.Error).NotTo(BeNil(), "%s: the harness without an approver answered the approval/request for %s", o.File, a.Context.ToolCallID)
	Expect(o.Approvals).To(BeEmpty(), "%s: the harness without an approver recorded decisions %v", o.File, o.Approvals)
}
