package checkpoint

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// targetOf returns the resume target that cp matches.
func targetOf(cp *Checkpoint) ResumeTarget {
	c := cp.Compatibility
	return ResumeTarget{RunID: cp.RunID, TaskID: cp.TaskID, WorkspaceRoot: *cp.Workspace.Root, Integrity: c.Integrity,
		NoProgressPolicy: PolicyStrict, ObservationNudgeThresholds: []int64{3, 5}}
}

var _ = Describe("CheckCompatibility", func() {
	var cp *Checkpoint
	BeforeEach(func() {
		var err error
		cp, err = Create(fullPayload(), ReasonPause, "2026-01-02T03:04:05.006Z")
		Expect(err).NotTo(HaveOccurred())
	})

	It("accepts the run that wrote the checkpoint", func() {
		Expect(CheckCompatibility(cp, targetOf(cp))).To(Succeed())
	})

	It("names every mismatch in order with code CHECKPOINT_INCOMPATIBLE", func() {
		t := ResumeTarget{NoProgressPolicy: PolicyAdvisory, ObservationNudgeThresholds: []int64{2}}
		err := CheckCompatibility(cp, t)
		Expect(err).To(MatchError("Checkpoint is incompatible with this run: runId, taskId, workspaceRoot, modelIdentity, " +
			"promptHash, promptVersion, registrySnapshotHash, capabilitiesHash, effectCapabilitiesHash, systemPromptHash, " +
			"taskContractHash, noProgressPolicy (strict vs advisory), observationNudgeThresholds (3,5 vs 2)."))
		var ie *IncompatibleError
		Expect(err).To(BeAssignableToTypeOf(ie))
		Expect(err.(*IncompatibleError).Code()).To(Equal("CHECKPOINT_INCOMPATIBLE"))
	})

	DescribeTable("rejects a single difference",
		func(change func(*ResumeTarget), item string) {
			t := targetOf(cp)
			change(&t)
			Expect(CheckCompatibility(cp, t)).To(MatchError("Checkpoint is incompatible with this run: " + item + "."))
		},
		Entry(nil, func(t *ResumeTarget) { t.PromptHash = "sha256:other" }, "promptHash"),
		Entry(nil, func(t *ResumeTarget) { t.SystemPromptHash = "sha256:other" }, "systemPromptHash"),
		Entry(nil, func(t *ResumeTarget) { t.WorkspaceRoot = "/elsewhere" }, "workspaceRoot"),
		Entry(nil, func(t *ResumeTarget) { t.CapabilitiesHash = "sha256:other" }, "capabilitiesHash"),
	)

	It("compares normalized thresholds", func() {
		t := targetOf(cp)
		t.ObservationNudgeThresholds = []int64{5, 3, 5}
		Expect(CheckCompatibility(cp, t)).To(Succeed())
	})

	It("does not check no-progress settings an older checkpoint did not record", func() {
		cp.NoProgress.Policy = ""
		cp.NoProgress.ObservationNudgeThresholds = nil
		t := targetOf(cp)
		t.NoProgressPolicy, t.ObservationNudgeThresholds = PolicyAdvisory, []int64{9}
		Expect(CheckCompatibility(cp, t)).To(Succeed())
		cp.NoProgress = nil
		Expect(CheckCompatibility(cp, t)).To(Succeed())
	})

	It("rejects a checkpoint without a workspace root", func() {
		t := targetOf(cp)
		cp.Workspace.Root = nil
		Expect(CheckCompatibility(cp, t)).To(MatchError("Checkpoint is incompatible with this run: workspaceRoot."))
	})
})
