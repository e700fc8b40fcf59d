package run_test

import (
	"github.com/galaxy-stack/conform/core/run"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("the state machine (RUNTIME §9)", func() {
	operational := []string{run.StateInspecting, run.StatePlanning, run.StateExecuting, run.StateValidating, run.StateReviewing}
	It("allows every operational to operational transition", func() {
		for _, from := range operational {
			for _, to := range operational {
				if from != to {
					Expect(run.CanTransition(from, to)).To(BeTrue(), "%s -> %s", from, to)
				}
			}
		}
	})
	It("closes terminal states", func() {
		for _, from := range []string{run.StateCompleted, run.StateFailed, run.StateCancelled, run.StatePaused} {
			Expect(run.IsTerminal(from)).To(BeTrue())
			for _, to := range run.States() {
				Expect(run.CanTransition(from, to)).To(BeFalse(), "%s -> %s", from, to)
			}
		}
	})
	It("reaches completed only from reviewing", func() {
		for _, from := range run.States() {
			Expect(run.CanTransition(from, run.StateCompleted)).To(Equal(from == run.StateReviewing), from)
		}
	})
	DescribeTable("the irregular edges",
		func(from, to string, allowed bool) { Expect(run.CanTransition(from, to)).To(Equal(allowed)) },
		Entry(nil, run.StateCreated, run.StatePreparing, true),
		Entry(nil, run.StateCreated, run.StateInspecting, false),
		Entry(nil, run.StatePreparing, run.StateValidating, false),
		Entry(nil, run.StatePreparing, run.StateWaitingApproval, false),
		Entry(nil, run.StateResuming, run.StateWaitingApproval, false),
		Entry(nil, run.StateResuming, run.StateCompacting, false),
		Entry(nil, run.StateResuming, run.StateValidating, true),
		Entry(nil, run.StateCompacting, run.StatePreparing, true),
		Entry(nil, run.StateWaitingApproval, run.StateWaitingApproval, false),
		Entry(nil, run.StateWaitingApproval, run.StateCompacting, true),
	)
})

var _ = Describe("generated workspace paths (RUNTIME §30)", func() {
	DescribeTable("IsGeneratedPath",
		func(segments []string, want bool) { Expect(run.IsGeneratedPath(segments)).To(Equal(want)) },
		Entry(nil, []string{"node_modules", "x", "index.js"}, true),
		Entry(nil, []string{"src", "dist", "a.js"}, true),
		Entry(nil, []string{"service.log"}, true),
		Entry(nil, []string{"a", ".DS_Store"}, true),
		Entry(nil, []string{"tsconfig.tsbuildinfo"}, true),
		Entry(nil, []string{"src", "main.ts"}, false),
		Entry(nil, []string{"distribution", "a.js"}, false),
	)
	It("counts only the leaf for churning paths", func() {
		Expect(run.IsChurningPath([]string{"logs", "app.log"})).To(BeTrue())
		Expect(run.IsChurningPath([]string{"app.log", "x.txt"})).To(BeFalse())
		Expect(run.IsChurningFileName("tsconfig.tsbuildinfo")).To(BeFalse())
	})
})
