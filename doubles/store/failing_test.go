package store_test

import (
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/doubles/store"
)

var _ = Describe("FailingRunStore", func() {
	var (
		inner *store.RunStore
		s     *store.FailingRunStore
	)

	It("fails exactly the Nth put and writes nothing for it", func() {
		inner = store.NewRunStore()
		s = store.NewFailingRunStore(inner, store.Fault{Op: store.OpPut, Nth: 2})
		_, err := s.SaveCheckpoint(ctx, checkpoint("r", "milestone", 1))
		Expect(err).NotTo(HaveOccurred())
		receipt, err := s.SaveCheckpoint(ctx, checkpoint("r", "pause", 2))
		Expect(err).To(MatchError(store.ErrInjected))
		Expect(err).To(MatchError("store: put call 2 failed: injected failure"))
		Expect(receipt.ArtifactRef).To(BeEmpty())
		_, err = s.SaveCheckpoint(ctx, checkpoint("r", "failure", 3))
		Expect(err).NotTo(HaveOccurred(), "only the Nth call fails")

		Expect(inner.CheckpointReasons()).To(Equal([]string{"milestone", "failure"}))
		Expect(s.Calls(store.OpPut)).To(Equal(3))
		Expect(s.Injected()).To(Equal([]store.FaultError{{Op: store.OpPut, Call: 2}}))
	})

	It("commits the Nth put, then fails its acknowledgement", func() {
		inner = store.NewRunStore()
		s = store.NewFailingRunStore(inner, store.Fault{Op: store.OpPut, Nth: 1, Committed: true})
		_, err := s.SaveCheckpoint(ctx, checkpoint("r", "pause", 1))
		var fe *store.FaultError
		Expect(errors.As(err, &fe)).To(BeTrue())
		Expect(*fe).To(Equal(store.FaultError{Op: store.OpPut, Call: 1, Committed: true}))
		Expect(err).To(MatchError("store: put call 1 committed, then its acknowledgement failed: injected failure"))

		latest, err := inner.LoadLatestCheckpoint(ctx, "r")
		Expect(err).NotTo(HaveOccurred())
		Expect(string(latest)).To(Equal(string(checkpoint("r", "pause", 1))), "the write is durable")
		latest, err = s.LoadLatestCheckpoint(ctx, "r")
		Expect(err).NotTo(HaveOccurred())
		Expect(latest).NotTo(BeNil(), "and visible through the wrapper")
	})

	It("fails the Nth get and the Nth report", func() {
		inner = store.NewRunStore()
		s = store.NewFailingRunStore(inner,
			store.Fault{Op: store.OpGet, Nth: 1},
			store.Fault{Op: store.OpReport, Nth: 2, Committed: true},
			store.Fault{Op: store.OpReport, Nth: 3},
		)
		_, err := s.LoadLatestCheckpoint(ctx, "r")
		Expect(err).To(MatchError(store.ErrInjected))
		_, err = s.LoadLatestCheckpoint(ctx, "r")
		Expect(err).NotTo(HaveOccurred())

		Expect(s.SaveFinalReport(ctx, []byte(`{"runId":"r","n":1}`))).To(Succeed())
		Expect(s.SaveFinalReport(ctx, []byte(`{"runId":"r","n":2}`))).To(MatchError(store.ErrInjected))
		Expect(s.SaveFinalReport(ctx, []byte(`{"runId":"r","n":3}`))).To(MatchError(store.ErrInjected))
		Expect(string(inner.FinalReport("r"))).To(Equal(`{"runId":"r","n":2}`), "the committed report stayed, the failed one never arrived")
		Expect(inner.FinalReportHistory()).To(HaveLen(2))
		Expect(s.CheckpointTrust()).To(Equal("trusted_host"))
	})

	It("passes the wrapped store's own errors through", func() {
		s = store.NewFailingRunStore(store.NewRunStore(), store.Fault{Op: store.OpPut, Nth: 1, Committed: true})
		_, err := s.SaveCheckpoint(ctx, []byte(`{}`))
		Expect(err).To(MatchError(`store: checkpoint has no "runId"`))
	})

	DescribeTable("refuses invalid faults",
		func(f store.Fault, msg string) {
			Expect(f.Validate()).To(MatchError(ContainSubstring(msg)))
			Expect(func() { store.NewFailingRunStore(store.NewRunStore(), f) }).To(Panic())
		},
		Entry("unknown op", store.Fault{Op: "delete", Nth: 1}, `operation "delete" is unknown`),
		Entry("zero Nth", store.Fault{Op: store.OpPut, Nth: 0}, "calls count from 1"),
		Entry("committed get", store.Fault{Op: store.OpGet, Nth: 1, Committed: true}, "cannot be committed"),
	)

	It("refuses trace faults on a run store and store faults on a trace", func() {
		Expect(func() { store.NewFailingRunStore(store.NewRunStore(), store.Fault{Op: store.OpFlush, Nth: 1}) }).To(PanicWith(ContainSubstring("does not apply")))
		Expect(func() { store.NewFailingTrace(store.NewTrace(), store.Fault{Op: store.OpPut, Nth: 1}) }).To(PanicWith(ContainSubstring("does not apply")))
	})
})

var _ = Describe("FailingTrace", func() {
	It("fails exactly the Nth append and records nothing for it", func() {
		inner := store.NewTrace()
		t := store.NewFailingTrace(inner, store.Fault{Op: store.OpAppend, Nth: 2})
		Expect(t.Emit(ctx, event("e", 1))).To(Succeed())
		Expect(t.Emit(ctx, event("e", 2))).To(MatchError(store.ErrInjected))
		Expect(t.Emit(ctx, event("e", 3))).To(Succeed())
		Expect(inner.Events()).To(HaveLen(2))
		Expect(inner.Events()[1].Sequence).To(Equal(int64(3)))
		Expect(t.Calls(store.OpAppend)).To(Equal(3))
	})

	It("commits the Nth append, then fails its acknowledgement", func() {
		inner := store.NewTrace()
		t := store.NewFailingTrace(inner, store.Fault{Op: store.OpAppend, Nth: 1, Committed: true})
		Expect(t.Emit(ctx, event("e", 1))).To(MatchError(store.ErrInjected))
		Expect(inner.Events()).To(HaveLen(1), "the event is durable")
		Expect(inner.Events()[0].EventID).To(Equal("run-1:e:1"))
	})

	It("fails the Nth flush, committed or not", func() {
		inner := store.NewTrace()
		t := store.NewFailingTrace(inner,
			store.Fault{Op: store.OpFlush, Nth: 2},
			store.Fault{Op: store.OpFlush, Nth: 3, Committed: true},
		)
		Expect(t.Flush(ctx)).To(Succeed())
		Expect(t.Flush(ctx)).To(MatchError(store.ErrInjected))
		Expect(inner.FlushCount()).To(Equal(1))
		Expect(t.Flush(ctx)).To(MatchError(store.ErrInjected))
		Expect(inner.FlushCount()).To(Equal(2), "the committed flush happened")
		Expect(t.Flush(ctx)).To(Succeed())
		Expect(t.Injected()).To(Equal([]store.FaultError{{Op: store.OpFlush, Call: 2}, {Op: store.OpFlush, Call: 3, Committed: true}}))
	})
})
