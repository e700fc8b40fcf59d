package run_test

import (
	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/doubles/store"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// reportingVerifier is testVerifier stating a consistency level.
type reportingVerifier struct {
	*testVerifier
	consistency string
}

func (v reportingVerifier) Consistency() string { return v.consistency }

var _ run.ConsistencyReporter = reportingVerifier{}

var _ = Describe("the verifier's consistency (CONTRACTS §13.8)", func() {
	// writeRun writes, validates and reviews the diff with verifier v.
	writeRun := func(v run.Verifier, runID string) run.Result {
		e := scripted(calls(call("workspace_list", "l"), call("workspace_write", "w")), calls(call("project_validate", "v")),
			calls(call("git_diff", "d")), text("Changed src/a.ts, validated and reviewed."))
		e.verifier = v
		return e.start(baseRequest(runID))
	}

	It("applies write evidence with a verifier that reports serialized_workspace", func() {
		r := writeRun(reportingVerifier{newVerifier(), run.ConsistencySerializedWorkspace}, "run-consistent")
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
		Expect(r.Writes).To(HaveLen(1))
	})

	It("takes a verifier that does not report a consistency as serialized_workspace", func() {
		r := writeRun(newVerifier(), "run-unreported")
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
	})

	DescribeTable("treats any other consistency as a missing verifier for write evidence",
		func(consistency string) {
			v := reportingVerifier{newVerifier(), consistency}
			r := writeRun(v, "run-inconsistent")
			Expect(r.ErrorCode).To(Equal(run.CodeToolExecution))
			Expect(r.ErrorMessage).To(ContainSubstring("Workspace-changing or verification evidence requires a host workspace evidence verifier."))
			Expect(r.Writes).To(BeEmpty())
			Expect(v.captures).To(BeEmpty(), "the unusable verifier is never asked")
		},
		Entry("empty", ""),
		Entry("another level", "eventual"),
		Entry("a different case", "Serialized_Workspace"),
	)

	DescribeTable("resumes a fingerprinted checkpoint only with a serialized_workspace verifier",
		func(consistency string, incompatible bool) {
			st := store.NewRunStore()
			Expect(pausedRun(st, newVerifier(), "run-resume-consistency").Status).To(Equal(run.StatusPaused))
			again := scripted(text("Inspected."))
			again.store, again.verifier = st, reportingVerifier{newVerifier(), consistency}
			r := again.resume(baseRequest("run-resume-consistency"))
			if incompatible {
				Expect(r.ErrorCode).To(Equal(run.CodeCheckpointIncompatible))
				Expect(r.ErrorMessage).To(Equal("Checkpoint workspace evidence cannot be resumed without a captured fingerprint and host verifier."))
			} else {
				Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
			}
		},
		Entry("serialized_workspace resumes", run.ConsistencySerializedWorkspace, false),
		Entry("another level is no verifier", "eventual", true),
	)
})
