package run_test

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/faults"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/doubles/model"
	"github.com/galaxy-stack/conform/doubles/store"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// pausedRun inspects, then is paused by the caller on its first tool result.
func pausedRun(st port.RunStore, v *testVerifier, runID string) run.Result {
	e := scripted(calls(call("workspace_list", "l")), text("never"))
	e.store, e.verifier = st, v
	e.onEvent = pauseAfterFirstResult
	return e.start(baseRequest(runID))
}

var _ = Describe("checkpoints, pause and resume (RUNTIME §21, §22)", func() {
	It("pauses with a pause checkpoint and resumes on a fresh controller with a fresh state machine", func() {
		st, v := store.NewRunStore(), newVerifier()
		m := newFnModel(roundCalls("workspace_list", "l"))
		m.identity.BaseURL = "https://user:password@model.invalid/v1?api_key=super-secret#fragment"
		m.caps.Identity = m.identity
		e := newEnv(m)
		e.store, e.verifier = st, v
		e.onEvent = pauseAfterFirstResult
		r := e.start(baseRequest("run-pause"))
		Expect(r.Status).To(Equal(run.StatusPaused))
		Expect(r.ErrorCode).To(BeEmpty())
		Expect(transitions(r)).To(HaveLen(3))
		Expect(r.Transitions[2].Reason).To(Equal("Paused by caller."))
		Expect(st.CheckpointReasons()).To(Equal([]string{"pause"}))
		raw := string(st.CheckpointHistory()[0])
		Expect(raw).NotTo(Or(ContainSubstring("password"), ContainSubstring("super-secret")))
		Expect(r.Checkpoint.Compatibility.PromptHash).To(MatchRegexp(`^sha256:[0-9a-f]{64}$`))
		Expect(r.Checkpoint.Totals.ToolCalls).To(BeEquivalentTo(1))

		m2 := newFnModel([]port.RoundEvent{started(), doneText("Resumed and reported.")})
		m2.identity, m2.caps.Identity = m.identity, m.identity
		m2.caps.Evidence[0].ObservedAt = "2030-01-01T00:00:00.000Z"
		again := newEnv(m2)
		again.store, again.verifier = st, v
		r = again.resume(baseRequest("run-pause"))
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
		Expect(transitions(r)).To(Equal([]string{"created->preparing", "preparing->resuming", "resuming->inspecting", "inspecting->reviewing", "reviewing->completed"}))
		Expect(again.exec.restored).To(Equal([][]string{{"git_diff", "project_validate", "workspace_list", "workspace_write"}}), "fresh-host tool-set restore")
		Expect(r.Turns).To(Equal(2))
	})

	DescribeTable("resume refusals are CHECKPOINT_INCOMPATIBLE (DECISIONS 55)",
		func(mutate func(req *run.Request, st *store.RunStore, v *testVerifier) port.RunStore, message string) {
			st, v := store.NewRunStore(), newVerifier()
			Expect(pausedRun(st, v, "run-refuse").Status).To(Equal(run.StatusPaused))
			req := baseRequest("run-refuse")
			rs := mutate(&req, st, v)
			again := scripted(text("never"))
			again.verifier = v
			if rs != nil {
				again.store = rs
			}
			r := again.resume(req)
			Expect(r.Status).To(Equal(run.StatusFailed))
			Expect(r.ErrorCode).To(Equal(run.CodeCheckpointIncompatible))
			Expect(r.ErrorMessage).To(ContainSubstring(message))
			Expect(again.model.(*model.Scripted).RequestCount()).To(Equal(0))
		},
		Entry("a caller checkpoint without trust", func(req *run.Request, st *store.RunStore, _ *testVerifier) port.RunStore {
			req.Checkpoint = st.CheckpointHistory()[0]
			return st
		}, "requires an explicit trusted_host provenance assertion"),
		Entry("no store", func(*run.Request, *store.RunStore, *testVerifier) port.RunStore { return nil }, "Checkpoint resume requires a trusted host store."),
		Entry("no checkpoint", func(req *run.Request, st *store.RunStore, _ *testVerifier) port.RunStore {
			req.RunID = "run-other"
			return st
		}, "No checkpoint found for run run-other."),
		Entry("a tampered checkpoint", func(req *run.Request, st *store.RunStore, _ *testVerifier) port.RunStore {
			raw := strings.Replace(string(st.CheckpointHistory()[0]), `"goal":"Inspect`, `"goal":"Tamper`, 1)
			req.Checkpoint, req.CheckpointTrust = json.RawMessage(raw), port.CheckpointTrustTrustedHost
			return st
		}, "Checkpoint integrity validation failed"),
		Entry("a changed prompt", func(req *run.Request, st *store.RunStore, _ *testVerifier) port.RunStore {
			req.Prompt.NetworkAccess = "allowed"
			return st
		}, "promptHash"),
		Entry("a changed workspace", func(req *run.Request, st *store.RunStore, v *testVerifier) port.RunStore {
			v.fingerprint = "sha256:changed"
			return st
		}, "Workspace state changed after the checkpoint was created."),
		Entry("changed no-progress thresholds", func(req *run.Request, st *store.RunStore, _ *testVerifier) port.RunStore {
			req.Budget.ObservationNudgeThresholds = []float64{5}
			return st
		}, "observationNudgeThresholds"),
	)

	It("refuses to resume a checkpoint captured without a verifier", func() {
		st := store.NewRunStore()
		e := scripted(calls(call("workspace_list", "l")), text("never"))
		e.store = st
		e.onEvent = pauseAfterFirstResult
		Expect(e.start(baseRequest("run-noverify")).Status).To(Equal(run.StatusPaused))
		again := scripted(text("never"))
		again.store, again.verifier = st, newVerifier()
		r := again.resume(baseRequest("run-noverify"))
		Expect(r.ErrorMessage).To(Equal("Checkpoint workspace evidence cannot be resumed without a captured fingerprint and host verifier."))
	})

	It("fails with the store's code when the pause checkpoint cannot be saved (DECISIONS 12)", func() {
		st := store.NewFailingRunStore(store.NewRunStore(), store.Fault{Op: store.OpPut, Nth: 1})
		r := pausedRun(st, newVerifier(), "run-pause-fail")
		Expect(r.Status).To(Equal(run.StatusFailed))
		Expect(r.ErrorCode).To(Equal(run.CodePersistenceError))
		Expect(r.ErrorMessage).To(HavePrefix("Pause checkpoint failed: Checkpoint persistence failed: "))
		Expect(r.Checkpoint).To(BeNil(), "an unacknowledged save never becomes the latest checkpoint")
	})

	It("reports CHECKPOINT_INCOMPATIBLE when the pause checkpoint's workspace capture fails", func() {
		v := newVerifier()
		e := scripted(calls(call("workspace_list", "l")), text("never"))
		e.store, e.verifier = store.NewRunStore(), v
		e.onEvent = func(c *run.Controller, ev run.Event) {
			if ev.Type == run.EventToolResult {
				v.failCapture = true
				c.Pause(ev.RunID, "")
			}
		}
		r := e.start(baseRequest("run-pause-capture"))
		Expect(r.ErrorCode).To(Equal(run.CodeCheckpointIncompatible))
		Expect(r.ErrorMessage).To(Equal("Pause checkpoint failed: Workspace checkpoint capture failed: capture failed"))
	})

	It("restores evidence and counters from the checkpoint", func() {
		st, v := store.NewRunStore(), newVerifier()
		e := scripted(calls(call("workspace_list", "l")), calls(call("workspace_write", "w")), text("never"))
		e.store, e.verifier = st, v
		e.onEvent = pauseAfter("w")
		r := e.start(baseRequest("run-restore"))
		Expect(r.Status).To(Equal(run.StatusPaused))
		Expect(r.Checkpoint.Phase).To(Equal(checkpoint.PhaseExecuting))
		again := scripted(calls(call("workspace_write", "w")), calls(call("project_validate", "v")), calls(call("git_diff", "d")), text("Done."))
		again.store, again.verifier = st, v
		r = again.resume(baseRequest("run-restore"))
		Expect(r.ErrorMessage).To(Equal("toolCallId w was already used in this run."), "seen ids survive the resume")
		again = scripted(calls(call("project_validate", "v")), calls(call("git_diff", "d")), text("Done."))
		again.store, again.verifier = st, v
		r = again.resume(baseRequest("run-restore"))
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
		Expect(transitions(r)[2]).To(Equal("resuming->executing"))
		Expect(r.Writes).To(HaveLen(1))
		Expect(r.Validation[0].Sequence).To(BeEquivalentTo(3), "the tool-call counter continues from the checkpoint")
	})

	It("fails DEADLINE_EXCEEDED with a failure checkpoint when the deadline passes", func() {
		st := store.NewRunStore()
		e := scripted(calls(call("workspace_list", "l")), text("never"))
		e.store, e.verifier = st, newVerifier()
		e.exec.set("workspace_list", func(port.ToolCall) (port.ToolResult, error) {
			e.clock.Advance(100_001 * 1e6)
			return ok("workspace_list", &port.Effects{InspectedPaths: []string{"src"}}), nil
		})
		req := baseRequest("run-deadline")
		req.Budget.DeadlineMs = run.N(100_000)
		r := e.start(req)
		expectEnded(r, run.StatusFailed, run.CodeDeadlineExceeded, "AI Coder run deadline exceeded.")
		Expect(st.CheckpointReasons()).To(Equal([]string{"failure"}))
		Expect(outcomes(r.Checkpoint)).To(Equal([]string{"unknown"}), "the deadline won the race against the call")
	})
})

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
