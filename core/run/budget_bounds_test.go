package run_test

import (
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/run"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// maxSafeInteger is JavaScript's Number.MAX_SAFE_INTEGER, 2^53 - 1.
const maxSafeInteger = 1<<53 - 1

// startsWith starts a run of req on a fresh controller whose model answers
// with a report, waits for it, and returns Start's error.
func startsWith(req run.Request) error {
	e := newEnv(newFnModel([]port.RoundEvent{started(), doneText("Done.")}))
	h, err := e.controller().Start(req)
	if err == nil {
		wait(h)
	}
	return err
}

func withDelays(delays ...float64) run.Request {
	req := baseRequest("run-delay-bounds")
	req.Budget.ModelRetryDelaysMs = delays
	return req
}

func withThresholds(thresholds ...float64) run.Request {
	req := baseRequest("run-threshold-bounds")
	req.Budget.ObservationNudgeThresholds = thresholds
	return req
}

var _ = Describe("budget bounds at their edges (RUNTIME §5)", func() {
	It("starts with retry delays of exactly 1 and 600000 ms, and refuses 600001", func() {
		Expect(startsWith(withDelays(1, 600000))).To(Succeed())
		err := startsWith(withDelays(1, 600001))
		Expect(requestError(err).Message).To(Equal("modelRetryDelaysMs entries must be integers between 1 and 600000; index 1 received 600001."))
		err = startsWith(withDelays(0.5))
		Expect(requestError(err).Message).To(Equal("modelRetryDelaysMs entries must be integers between 1 and 600000; index 0 received 0.5."))
	})

	It("starts with exactly 8 retry delays", func() {
		Expect(startsWith(withDelays(1, 2, 3, 4, 5, 6, 7, 8))).To(Succeed())
		err := startsWith(withDelays(1, 2, 3, 4, 5, 6, 7, 8, 9))
		Expect(requestError(err).Message).To(Equal("modelRetryDelaysMs must contain between 1 and 8 delays."))
	})

	It("starts with exactly 8 nudge thresholds, and refuses 9", func() {
		Expect(startsWith(withThresholds(2, 3, 4, 5, 6, 7, 8, 9))).To(Succeed())
		err := startsWith(withThresholds(2, 3, 4, 5, 6, 7, 8, 9, 10))
		Expect(requestError(err).Message).To(Equal("observationNudgeThresholds must contain at most 8 thresholds."))
	})

	It("starts with a nudge threshold of Number.MAX_SAFE_INTEGER, and refuses the next integer", func() {
		Expect(startsWith(withThresholds(2, maxSafeInteger))).To(Succeed())
		err := startsWith(withThresholds(2, maxSafeInteger+1))
		Expect(requestError(err).Message).To(Equal("observationNudgeThresholds entries must be integers >= 2; received 9007199254740992."))
		Expect(requestError(err).Kind).To(Equal("RangeError"))
	})

})

var _ = Describe("batch preflight against maxToolCalls (RUNTIME §13 step 5)", func() {
	It("dispatches a batch that uses exactly the remaining tool calls", func() {
		e := scripted(calls(argCall("workspace_list", "l1", map[string]any{"path": "src"}), argCall("workspace_list", "l2", map[string]any{"path": "lib"})),
			text("Inspected."))
		req := baseRequest("run-batch-exact-budget")
		req.Budget.MaxToolCalls = run.N(2)
		r := e.start(req)
		Expect(r.ErrorCode).NotTo(Equal(run.CodeMaxToolCalls), r.ErrorMessage)
		Expect(e.exec.names()).To(Equal([]string{"workspace_list", "workspace_list"}))
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
	})

	It("refuses a batch one call over the remaining tool calls before dispatching any", func() {
		e := scripted(calls(argCall("workspace_list", "l1", map[string]any{"path": "src"}), argCall("workspace_list", "l2", map[string]any{"path": "lib"})),
			text("never"))
		req := baseRequest("run-batch-over-budget")
		req.Budget.MaxToolCalls = run.N(1)
		r := e.start(req)
		Expect(r.ErrorCode).To(Equal(run.CodeMaxToolCalls))
		Expect(r.ErrorMessage).To(Equal("AI Coder reached maxToolCalls=1."))
		Expect(e.exec.names()).To(BeEmpty())
	})
})
