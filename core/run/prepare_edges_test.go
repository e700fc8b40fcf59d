package run_test

import (
	"fmt"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/prompt"
	"github.com/galaxy-stack/conform/core/run"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// withScreenshots attaches n distinct PNG screenshots.
func withScreenshots(req run.Request, n int) run.Request {
	for i := range n {
		req.Attachments = append(req.Attachments, prompt.Attachment{ArtifactID: fmt.Sprintf("artifact-screen-%d", i),
			ContentSha256: fmt.Sprintf("sha256:screen-%d", i), MimeType: "image/png", Name: fmt.Sprintf("screen-%d.png", i),
			Provenance: prompt.Provenance{Source: "user_upload"}, Retention: "default", Trust: "untrusted_data"})
	}
	return req
}

// lastMessage is the content of the last message of a model request.
func lastMessage(req port.RoundRequest) string { return req.Messages[len(req.Messages)-1].Content }

var _ = Describe("preparation and gate feedback at their edges (RUNTIME §10.3, Appendix A.9)", func() {
	DescribeTable("checks the attachment count against the model's verified image limit",
		func(count int, refused bool) {
			m := newFnModel([]port.RoundEvent{started(), doneText("Looked at the screenshots.")})
			m.caps.Input.Image = port.CapabilitySupported
			limit := 2
			m.caps.MaxImages = &limit
			r := newEnv(m).start(withScreenshots(noGateRequest("run-max-images"), count))
			if refused {
				expectEnded(r, run.StatusFailed, run.CodeCapabilityMismatch, fmt.Sprintf("Attachment count %d exceeds the verified model limit 2.", count))
				Expect(m.requestCount()).To(BeZero())
				return
			}
			Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
			Expect(m.requests[0].Attachments).To(HaveLen(count))
		},
		Entry("one below the limit", 1, false),
		Entry("exactly the limit", 2, false),
		Entry("one above the limit", 3, true),
	)

	DescribeTable("gives the Git or the no-Git DIFF_NOT_REVIEWED remediation by the active tool set",
		func(tools []testTool, want, not string) {
			m := newFnModel(roundCalls("workspace_list", "l"), roundCalls("workspace_write", "w"),
				[]port.RoundEvent{started(), doneText("Done early.")})
			e := newEnv(m)
			e.verifier = newVerifier()
			e.exec = newExec(tools...)
			e.start(baseRequest("run-diff-remediation"))
			rejected := e.eventsOf(run.EventCompletionRejected)
			Expect(rejected).NotTo(BeEmpty())
			Expect(rejected[0].Issues).To(ContainElement("DIFF_NOT_REVIEWED: The final diff has not been reviewed after workspace mutation."))
			Expect(len(m.requests)).To(BeNumerically(">=", 4))
			fb := lastMessage(m.requests[3])
			Expect(fb).To(HavePrefix("[GALAXY COMPLETION GATE FEEDBACK"))
			Expect(fb).To(ContainSubstring(want))
			Expect(fb).NotTo(ContainSubstring(not))
		},
		Entry("no Git tool", defaultTools()[1:], "this workspace has no Git", "git_operation with action 'diff'"),
		Entry("git.diff", defaultTools(), "git_operation with action 'diff'", "this workspace has no Git"),
		Entry("git.exec alone", append(defaultTools()[1:], testTool{name: "git_operation", canonical: "git.exec", caps: []string{"approval", "diff_review", "inspect"}}),
			"git_operation with action 'diff'", "this workspace has no Git"),
	)
})
