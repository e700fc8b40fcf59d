package run_test

import (
	"context"
	"encoding/json"

	"github.com/galaxy-stack/conform/core/faults"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/doubles/store"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// stallingStore is a run store whose checkpoint saves wait for their
// context to end and then fail with the context's error.
type stallingStore struct{ *store.RunStore }

func (s stallingStore) SaveCheckpoint(ctx context.Context, _ json.RawMessage) (port.CheckpointReceipt, error) {
	<-ctx.Done()
	return port.CheckpointReceipt{}, ctx.Err()
}

var _ = Describe("checkpoint persistence and restore at their edges (RUNTIME §21)", func() {
	It("fails a pause whose checkpoint save outlives the persistence grace with DEADLINE_EXCEEDED, not as a store failure", func() {
		e := scripted(calls(call("workspace_list", "l")), text("never"))
		e.onEvent = pauseAfterFirstResult
		e.store, e.verifier = stallingStore{store.NewRunStore()}, newVerifier()
		e.timers = fireAt(10_000)
		r := e.start(baseRequest("run-persistence-grace"))
		Expect(r.Status).To(Equal(run.StatusFailed))
		Expect(r.ErrorCode).To(Equal(run.CodeDeadlineExceeded), r.ErrorMessage)
		Expect(r.ErrorMessage).To(Equal("Pause checkpoint failed: Checkpoint persistence cleanup timed out."))
	})

	It("ignores a failed checkpoint save under CheckpointIgnoreSaveFailure and pauses", Serial, func() {
		undo, err := faults.Enable(faults.CheckpointIgnoreSaveFailure)
		Expect(err).NotTo(HaveOccurred())
		defer undo()
		e := scripted(calls(call("workspace_list", "l")), text("never"))
		e.onEvent = pauseAfterFirstResult
		st := store.NewFailingRunStore(store.NewRunStore(), store.Fault{Op: store.OpPut, Nth: 1})
		e.store, e.verifier = st, newVerifier()
		r := e.start(baseRequest("run-ignore-save-failure"))
		Expect(r.Status).To(Equal(run.StatusPaused), r.ErrorMessage)
		Expect(st.Injected()).To(HaveLen(1))
	})

	It("keeps the idempotency keys and research sources of the checkpoint it resumes from", func() {
		sources := map[string][]port.ResearchSource{"f": {fetched("https://b.example/page", "b read")}}
		st, v := store.NewRunStore(), newVerifier()
		first := scripted(calls(argCall("research_fetch", "f", map[string]any{})), text("never"))
		first.onEvent = pauseAfterFirstResult
		first.exec.tools = append(first.exec.tools, researchTool(sources))
		first.store, first.verifier = st, v
		r := first.start(baseRequest("run-restore-keys"))
		Expect(r.Status).To(Equal(run.StatusPaused), r.ErrorMessage)
		key := first.exec.contexts[0].IdempotencyKey
		Expect(key).NotTo(BeEmpty())
		Expect(r.Checkpoint.LastToolCalls[0].IdempotencyKey).To(Equal(key))
		Expect(r.Checkpoint.ResearchSources).To(HaveLen(1))

		again := scripted(calls(call("workspace_list", "l")), text("never"))
		again.onEvent = pauseAfterFirstResult
		again.exec.tools = append(again.exec.tools, researchTool(sources))
		again.store, again.verifier = st, v
		r2 := again.resume(baseRequest("run-restore-keys"))
		Expect(r2.Status).To(Equal(run.StatusPaused), r2.ErrorMessage)
		Expect(r2.Checkpoint.LastToolCalls).To(HaveLen(2))
		Expect(r2.Checkpoint.LastToolCalls[0].ToolCallID).To(Equal("f"))
		Expect(r2.Checkpoint.LastToolCalls[0].IdempotencyKey).To(Equal(key))
		Expect(r2.Checkpoint.ResearchSources).To(Equal(r.Checkpoint.ResearchSources))
	})
})
