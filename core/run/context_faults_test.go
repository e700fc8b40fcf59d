package run_test

import (
	"strings"

	"github.com/galaxy-stack/conform/core/faults"
	"github.com/galaxy-stack/conform/core/prompt"
	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/doubles/model"
	"github.com/galaxy-stack/conform/doubles/store"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// contextOutcome is what a context fault spec compares: how the run
// ended, the checkpoints it stored and whether the first model request
// carried the user-task message.
type contextOutcome struct {
	Status, ErrorCode string
	Reasons           []string
	TaskInFirst       bool
}

// inspectWithCounts runs a list-then-answer inspection whose token counts
// are n, on a store and a verifier, and reports its outcome.
func inspectWithCounts(runID string, n ...int) contextOutcome {
	m := model.NewScripted([]model.Round{calls(argCall("workspace_list", "l", map[string]any{})), text("Inspected.")}, counts(n...))
	e := newEnv(m)
	st := e.withStore()
	r := e.start(baseRequest(runID))
	out := contextOutcome{Status: r.Status, ErrorCode: r.ErrorCode}
	if reasons := st.CheckpointReasons(); len(reasons) > 0 {
		out.Reasons = reasons
	}
	if reqs := m.Requests(); len(reqs) > 0 {
		out.TaskInFirst = strings.Contains(requestText(reqs[0]), prompt.UserTaskHeader)
	}
	return out
}

var _ = Describe("context faults change the run's outcome (items 25, 26, 36, 38, 42)", Serial, func() {
	It("overflow-skip-compaction recounts the overflowing request with no provider_overflow checkpoint", func() {
		off, on := withFault(faults.OverflowSkipCompaction, func() any { return inspectWithCounts("run-skip-compaction", 90000, 500, 500) })
		Expect(off).To(Equal(contextOutcome{run.StatusCompleted, "", []string{"provider_overflow"}, true}))
		Expect(on).To(Equal(contextOutcome{run.StatusCompleted, "", nil, true}))
	})

	It("overflow-unbounded-recount compacts again instead of failing CONTEXT_BUDGET with a failure checkpoint", func() {
		off, on := withFault(faults.OverflowUnboundedRecount, func() any { return inspectWithCounts("run-unbounded", 90000, 90000, 500, 500) })
		Expect(off).To(Equal(contextOutcome{run.StatusFailed, run.CodeContextBudget, []string{"provider_overflow", "failure"}, false}))
		Expect(on).To(Equal(contextOutcome{run.StatusCompleted, "", []string{"provider_overflow", "provider_overflow"}, true}))
	})

	It("compaction-drops-task sends the request after a compaction without the user-task message", func() {
		off, on := withFault(faults.CompactionDropsTask, func() any { return inspectWithCounts("run-drops-task", 90000, 500, 500) })
		Expect(off.(contextOutcome).TaskInFirst).To(BeTrue())
		Expect(on.(contextOutcome).TaskInFirst).To(BeFalse())
	})

	It("checkpoint-drops-earlier-edits loses the write evidence from the second compaction on", func() {
		off, on := withFault(faults.CheckpointDropsEarlierEdits, func() any {
			_, st := repeatedOverflows("run-drops-edits")
			var edits []int
			for _, cp := range storedCheckpoints(st)[:3] {
				edits = append(edits, len(cp.Edits))
			}
			return edits
		})
		Expect(off).To(Equal([]int{1, 1, 1}))
		Expect(on).To(Equal([]int{1, 0, 0}))
	})

	It("tool-pressure-skip-checkpoint lets oversized tool output reach the next request without a checkpoint", func() {
		off, on := withFault(faults.ToolPressureSkipCheckpoint, func() any {
			_, e, st, req := oversizedToolOutput("run-skip-pressure")
			e.start(req)
			return st.CheckpointReasons()
		})
		Expect(off).To(Equal([]string{"tool_result_pressure"}))
		Expect(on).To(BeEmpty())
	})

	It("budget-as-provider-error reports a context assembly limit as PROVIDER_ERROR", func() {
		off, on := withFault(faults.BudgetAsProviderError, func() any {
			req := baseRequest("run-budget-code")
			req.Goal = strings.Repeat("x", 300000)
			return newEnv(model.NewScripted([]model.Round{text("never")})).start(req).ErrorCode
		})
		Expect(off).To(Equal(run.CodeContextBudget))
		Expect(on).To(Equal(run.CodeProviderError))
	})

	It("persistence-as-provider-error reports a refused checkpoint put as PROVIDER_ERROR", func() {
		off, on := withFault(faults.PersistenceAsProviderError, func() any {
			e := newEnv(model.NewScripted([]model.Round{text("never")}, counts(90000)))
			e.store = store.NewFailingRunStore(store.NewRunStore(), store.Fault{Op: store.OpPut, Nth: 1})
			e.verifier = newVerifier()
			return e.start(baseRequest("run-persistence-code")).ErrorCode
		})
		Expect(off).To(Equal(run.CodePersistenceError))
		Expect(on).To(Equal(run.CodeProviderError))
	})
})
