package store_test

import (
	"context"
	"encoding/json"
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/doubles/store"
)

var ctx = context.Background()

func checkpoint(runID, reason string, n int) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{"contentHash":"sha256:%02d","reason":%q,"runId":%q}`, n, reason, runID))
}

var _ = Describe("RunStore", func() {
	var s *store.RunStore

	BeforeEach(func() { s = store.NewRunStore() })

	It("declares trusted_host", func() {
		Expect(s.CheckpointTrust()).To(Equal("trusted_host"))
	})

	It("keeps the latest checkpoint per run and every checkpoint in save order", func() {
		receipt, err := s.SaveCheckpoint(ctx, checkpoint("run-a", "milestone", 1))
		Expect(err).NotTo(HaveOccurred())
		Expect(receipt.ArtifactRef).To(Equal("memory://checkpoints/run-a/sha256:01"))
		_, err = s.SaveCheckpoint(ctx, checkpoint("run-b", "pause", 2))
		Expect(err).NotTo(HaveOccurred())
		_, err = s.SaveCheckpoint(ctx, checkpoint("run-a", "failure", 3))
		Expect(err).NotTo(HaveOccurred())

		latest, err := s.LoadLatestCheckpoint(ctx, "run-a")
		Expect(err).NotTo(HaveOccurred())
		Expect(string(latest)).To(Equal(string(checkpoint("run-a", "failure", 3))))
		Expect(s.CheckpointHistory()).To(HaveLen(3))
		Expect(s.CheckpointReasons()).To(Equal([]string{"milestone", "pause", "failure"}))
	})

	It("returns nil for a run without checkpoints", func() {
		got, err := s.LoadLatestCheckpoint(ctx, "none")
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(BeNil())
	})

	It("stores the given bytes unchanged", func() {
		odd := json.RawMessage(`{ "runId" : "r", "b": 1, "a": 2 }`)
		_, err := s.SaveCheckpoint(ctx, odd)
		Expect(err).NotTo(HaveOccurred())
		got, _ := s.LoadLatestCheckpoint(ctx, "r")
		Expect(string(got)).To(Equal(string(odd)))
	})

	It("copies on write and on read", func() {
		in := checkpoint("run-a", "manual", 1)
		_, err := s.SaveCheckpoint(ctx, in)
		Expect(err).NotTo(HaveOccurred())
		in[2] = 'X'
		got, _ := s.LoadLatestCheckpoint(ctx, "run-a")
		Expect(string(got)).To(Equal(string(checkpoint("run-a", "manual", 1))))
		got[2] = 'Y'
		s.CheckpointHistory()[0][2] = 'Z'
		again, _ := s.LoadLatestCheckpoint(ctx, "run-a")
		Expect(string(again)).To(Equal(string(checkpoint("run-a", "manual", 1))))
		Expect(string(s.CheckpointHistory()[0])).To(Equal(string(checkpoint("run-a", "manual", 1))))
	})

	DescribeTable("rejects what it cannot key",
		func(data string, msg string) {
			_, err := s.SaveCheckpoint(ctx, json.RawMessage(data))
			Expect(err).To(MatchError(ContainSubstring(msg)))
			Expect(s.CheckpointHistory()).To(BeEmpty())
		},
		Entry("no runId", `{"reason":"manual"}`, `checkpoint has no "runId"`),
		Entry("null", `null`, `checkpoint has no "runId"`),
		Entry("array", `[1]`, "store: checkpoint: "),
		Entry("non-string runId", `{"runId":1}`, "store: checkpoint: "),
		Entry("not JSON", `{`, "store: checkpoint: "),
	)

	It("keeps final reports per run and in order", func() {
		Expect(s.SaveFinalReport(ctx, json.RawMessage(`{"runId":"a","content":"one"}`))).To(Succeed())
		Expect(s.SaveFinalReport(ctx, json.RawMessage(`{"runId":"a","content":"two"}`))).To(Succeed())
		Expect(string(s.FinalReport("a"))).To(Equal(`{"runId":"a","content":"two"}`))
		Expect(s.FinalReport("b")).To(BeNil())
		Expect(s.FinalReportHistory()).To(HaveLen(2))
		Expect(s.SaveFinalReport(ctx, json.RawMessage(`{}`))).To(MatchError(`store: final report has no "runId"`))
	})
})
