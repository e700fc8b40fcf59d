package guard_test

import (
	"errors"
	"strings"

	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/guard"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("episodes, recovery round and pause (RUNTIME §18.6)", func() {
	It("grants one recovery round listing the failed observations, then pauses", func() {
		s := newSim(cfgWith(nil))
		s.round(probe("probe_a"))
		s.round(probe("probe_b"))
		s.round(probe("probe_a"))
		s.round(probe("probe_b")) // episode 1
		long := probe("probe_c")
		long.result.OK, long.result.Summary = false, strings.Repeat("é", 200)
		v := s.round(probe("probe_a"), long) // cycle again: episode 2
		Expect(v.Action).To(Equal(guard.Recover))
		Expect(*v.Policy).To(Equal(guard.PolicyDecision{Action: guard.ActionNoProgressRecoveryTurn}))
		Expect(v.Feedback).To(Equal(strings.Join([]string{
			"[GALAXY NO-PROGRESS RECOVERY - trusted runtime state]",
			"The no-progress episode budget (2) is exhausted. This is the single recovery round before the run pauses.",
			"failed tools this round:",
			"- probe_a: Repeated tool cycle blocked by deterministic no-progress policy.",
			"- probe_c: " + strings.Repeat("é", 160),
			"next_strategy: change the approach materially. Re-read the exact current file region before editing, use the full current content for a whole-file write, or inspect a different source.",
			"avoid: repeating the same tool with the same precondition or arguments; that pauses the run immediately.",
		}, "\n")))
		Expect(s.g.FinalizationCheckAllowed()).To(BeFalse())
		v = s.round(probe("probe_c"))
		Expect(v).To(Equal(guard.Verdict{Action: guard.Pause, PauseReason: "Repeated no-progress episodes require user direction."}))
	})

	It("continues below the budget", func() {
		s := newSim(cfgWith(nil))
		Expect(s.round(probe("a")).Action).To(Equal(guard.Continue))
		Expect(s.g.FinalizationCheckAllowed()).To(BeTrue())
	})

	It("a final report in the recovery round is the controller's business: the recovery completes when the next batch makes progress", func() {
		s := newSim(cfgWith(func(c *guard.Config) { c.Policy = checkpoint.PolicyStrict; c.MaxNoProgressEpisodes = 1 }))
		s.round(read("package.json"))
		s.round(read("test.mjs"))
		s.round(read("package.json"))
		s.round(read("test.mjs"))
		Expect(s.round(read("package.json"), read("test.mjs")).Action).To(Equal(guard.Recover))
		Expect(s.round(read("src/other.mjs")).Action).To(Equal(guard.Continue), "a new inspection resets the episodes")
	})
})

var _ = Describe("finalization (RUNTIME §19)", func() {
	It("attempts finalization with an authored write, an episode or research", func() {
		g, _ := guard.New(guard.DefaultConfig("r"))
		Expect(g.ShouldAttemptFinalization(0, false)).To(BeFalse())
		Expect(g.ShouldAttemptFinalization(1, false)).To(BeTrue())
		Expect(g.ShouldAttemptFinalization(0, true)).To(BeTrue())
		s := newSim(cfgWith(nil))
		s.round(probe("p"))
		s.round(probe("p"))
		s.round(probe("p"))
		Expect(s.g.ShouldAttemptFinalization(0, false)).To(BeTrue())
	})

	It("enters evidence-ready finalization idempotently and leaves on a gate rejection", func() {
		var f guard.Finalizer
		fb, entered := f.Enter()
		Expect(entered).To(BeTrue())
		Expect(fb).To(HavePrefix("[GALAXY FINALIZATION MODE - trusted runtime state]\nAll deterministic completion evidence is satisfied"))
		_, entered = f.Enter()
		Expect(entered).To(BeFalse())
		Expect(f.Active()).To(BeTrue())
		f.Leave()
		Expect(f.Active()).To(BeFalse())
	})

	It("rejects tool calls in a tool-free turn with the exact issue, fatal at the rejection budget", func() {
		var f guard.Finalizer
		f.Enter()
		r := f.RejectToolCalls(1, 1, 3)
		Expect(r.Issue).To(Equal("FINALIZATION_TOOL_CALLS_IGNORED: Model requested 1 tool call(s) during a tool-free finalization turn; none were dispatched."))
		Expect(r.Feedback).To(Equal("[GALAXY FINALIZATION RETRY - trusted runtime state]\n" + r.Issue +
			"\nAll completion evidence remains satisfied. Return only the plain-text user-facing final report.\nDo not emit tool-call syntax or request any additional action."))
		Expect(r.Fatal).To(BeFalse())
		Expect(f.Active()).To(BeTrue())
		r = f.RejectToolCalls(2, 2, 2)
		Expect(r.Fatal).To(BeTrue())
		Expect(r.Message).To(Equal("Model requested tool calls during tool-free finalization 2 times."))
	})

	It("grants the budget finalization turn once, only when finalization should be attempted", func() {
		var f guard.Finalizer
		_, ok := f.BudgetTurn(false, 12)
		Expect(ok).To(BeFalse())
		t, ok := f.BudgetTurn(true, 12)
		Expect(ok).To(BeTrue())
		Expect(t).To(Equal(guard.BudgetTurn{MaxTurns: 13, Feedback: guard.BudgetFinalizationFeedback,
			Policy: guard.PolicyDecision{Action: guard.ActionBudgetFinalizationTurn, MaxTurns: 13}}))
		Expect(f.Active()).To(BeTrue())
		Expect(t.Feedback).NotTo(ContainSubstring("evidence is satisfied"), "DECISIONS 19")
		_, ok = f.BudgetTurn(true, 13)
		Expect(ok).To(BeFalse(), "a second exhaustion fails MAX_TURNS")
	})

	It("adds no second feedback when the budget turn finds the mode already on", func() {
		var f guard.Finalizer
		f.Enter()
		t, ok := f.BudgetTurn(true, 5)
		Expect(ok).To(BeTrue())
		Expect(t.Feedback).To(BeEmpty())
	})

	Describe("readiness", func() {
		fp := func(s string) *string { return &s }
		ev := guard.Evidence{
			Writes:      []checkpoint.Edit{{WorkspaceFingerprint: "w"}},
			Validations: []checkpoint.ValidationRecord{{WorkspaceFingerprint: "v1"}, {WorkspaceFingerprint: "v2"}},
			DiffReview:  &checkpoint.DiffReview{WorkspaceFingerprint: "d"},
		}

		It("takes the provisional fingerprint from the review, else the last validation, else the last write", func() {
			Expect(guard.ProvisionalFingerprint(ev)).To(Equal(fp("d")))
			e := ev
			e.DiffReview = nil
			Expect(guard.ProvisionalFingerprint(e)).To(Equal(fp("v2")))
			e.Validations = nil
			Expect(guard.ProvisionalFingerprint(e)).To(Equal(fp("w")))
			Expect(guard.ProvisionalFingerprint(guard.Evidence{})).To(BeNil())
		})

		It("evaluates the provisional fingerprint, then a fresh capture", func() {
			var seen []string
			gate := func(f *string) bool {
				if f == nil {
					seen = append(seen, "<nil>")
				} else {
					seen = append(seen, *f)
				}
				return true
			}
			ok, err := guard.Ready(ev, gate, func() (string, error) { return "fresh", nil })
			Expect(err).NotTo(HaveOccurred())
			Expect(ok).To(BeTrue())
			Expect(seen).To(Equal([]string{"d", "fresh"}))
		})

		It("is not ready when the provisional gate fails, without capturing", func() {
			ok, err := guard.Ready(ev, func(*string) bool { return false }, func() (string, error) { panic("no capture") })
			Expect(err).NotTo(HaveOccurred())
			Expect(ok).To(BeFalse())
		})

		It("evaluates with null and captures nothing without workspace evidence", func() {
			calls := 0
			ok, _ := guard.Ready(guard.Evidence{}, func(f *string) bool { calls++; return f == nil }, func() (string, error) { panic("no capture") })
			Expect(ok).To(BeTrue())
			Expect(calls).To(Equal(2))
		})

		It("returns the capture error", func() {
			boom := errors.New("capture failed")
			_, err := guard.Ready(ev, func(*string) bool { return true }, func() (string, error) { return "", boom })
			Expect(err).To(MatchError(boom))
		})

		It("can be false only at the fresh capture", func() {
			ok, _ := guard.Ready(ev, func(f *string) bool { return *f != "fresh" }, func() (string, error) { return "fresh", nil })
			Expect(ok).To(BeFalse())
		})
	})
})

var _ = Describe("configuration", func() {
	DescribeTable("New refuses impossible budgets, naming what is wrong", func(mut func(*guard.Config), want string) {
		_, err := guard.New(cfgWith(mut))
		Expect(err).To(MatchError(ContainSubstring(want)))
	},
		Entry("unknown policy", func(c *guard.Config) { c.Policy = "aggressive" }, `policy "aggressive" is not advisory or strict`),
		Entry("no thresholds", func(c *guard.Config) { c.ObservationNudgeThresholds = nil }, "0 observation nudge thresholds, want 1 to 8"),
		Entry("unsorted thresholds", func(c *guard.Config) { c.ObservationNudgeThresholds = []int64{5, 3} }, "thresholds [5 3] are not ascending unique"),
		Entry("duplicate thresholds", func(c *guard.Config) { c.ObservationNudgeThresholds = []int64{3, 3} }, "thresholds [3 3] are not ascending unique"),
		Entry("threshold 1", func(c *guard.Config) { c.ObservationNudgeThresholds = []int64{1} }, "thresholds [1] are not ascending unique integers >= 2"),
		Entry("nine thresholds", func(c *guard.Config) { c.ObservationNudgeThresholds = []int64{2, 3, 4, 5, 6, 7, 8, 9, 10} }, "9 observation nudge thresholds"),
		Entry("zero episodes", func(c *guard.Config) { c.MaxNoProgressEpisodes = 0 }, "maxNoProgressEpisodes 0 is not positive"),
	)

	It("knows the ten stable observation tools", func() {
		for _, id := range []string{"artifact.list", "artifact.read", "git.exec", "project.detect", "research.fetch", "research.search",
			"workspace.glob", "workspace.grep", "workspace.list", "workspace.read"} {
			Expect(guard.IsStableObservation(id)).To(BeTrue(), id)
		}
		Expect(guard.IsStableObservation("git.diff")).To(BeFalse())
		Expect(guard.IsStableObservation("workspace.write")).To(BeFalse())
	})
})
