package guard_test

import (
	"strings"

	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/guard"
	"github.com/galaxy-stack/conform/core/port"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func repeatSteps(s step, n int) []step {
	out := make([]step, n)
	for i := range out {
		out[i] = s
	}
	return out
}

var _ = Describe("advisory observation guard (RUNTIME §18.2)", func() {
	DescribeTable("nudges at the thresholds and blocks beyond the last one",
		func(thresholds []int64, calls int, wantActions []string, wantDispatched int) {
			s := newSim(cfgWith(func(c *guard.Config) { c.ObservationNudgeThresholds = thresholds }))
			for range calls {
				s.round(read("src/a.ts"))
			}
			Expect(s.actions()).To(Equal(wantActions))
			Expect(s.dispatched).To(HaveLen(wantDispatched))
		},
		Entry("defaults: nudges at 3, 5, 8, the 9th is blocked", []int64{3, 5, 8}, 9,
			[]string{"observation_nudge@3", "observation_nudge@5", "observation_nudge@8", "observation_blocked@9"}, 8),
		Entry("every later identical request stays blocked at the same attempt (blocked calls are not counted)", []int64{3, 5, 8}, 11,
			[]string{"observation_nudge@3", "observation_nudge@5", "observation_nudge@8", "observation_blocked@9", "observation_blocked@9", "no_progress_recovery_turn", "observation_blocked@9"}, 8),
		Entry("a single threshold 2 blocks the 3rd", []int64{2}, 3,
			[]string{"observation_nudge@2", "observation_blocked@3"}, 2),
		Entry("two attempts stay below the first threshold", []int64{3, 5, 8}, 2, []string(nil), 2),
	)

	It("traces the full policy decision payload", func() {
		s := newSim(cfgWith(nil))
		for range 3 {
			s.round(read("src/a.ts"))
		}
		Expect(s.policy).To(Equal([]guard.PolicyDecision{{Action: guard.ActionObservationNudge, Attempt: 3, CanonicalToolID: "workspace.read",
			Policy: "advisory", Thresholds: []int64{3, 5, 8}, ToolCallID: "call-3"}}))
	})

	It("uses the 'returned before' line at the first threshold and the count line later (Appendix A.7)", func() {
		s := newSim(cfgWith(nil))
		for range 5 {
			s.round(read("src/a.ts"))
		}
		Expect(s.feedback).To(HaveLen(2))
		Expect(s.feedback[0]).To(Equal(strings.Join([]string{
			"[GALAXY OBSERVATION NUDGE - trusted runtime state]",
			"observation: workspace.read returned this exact result before; the retained copy is already in context.",
			"tool: read_file",
			"arguments_hash: " + hashOf(map[string]any{"path": "src/a.ts"}),
			"tool_call_id: call-3",
			"next_strategy: use the retained evidence, change the query or path, or perform the next required action",
			"advisory_thresholds: 3, 5, 8",
			"avoid: re-requesting identical bounded observations",
		}, "\n")))
		Expect(s.feedback[1]).To(ContainSubstring("observation: workspace.read has been requested 5 times; the retained result has not produced new work."))
	})

	It("counts no episode for a nudge and one for the block, with the exact incident", func() {
		s := newSim(cfgWith(nil))
		for range 8 {
			s.round(read("src/a.ts"))
		}
		Expect(s.g.Episodes()).To(Equal(0))
		s.round(read("src/a.ts"))
		Expect(s.g.Episodes()).To(Equal(1))
		Expect(s.feedback[len(s.feedback)-1]).To(Equal(strings.Join([]string{
			"[GALAXY NO-PROGRESS FEEDBACK - trusted runtime state]",
			"failure: workspace.read identical observation requested 9 times, beyond the final advisory nudge threshold 8",
			"tool: read_file",
			"tool_call_id: call-9",
			"next_strategy: act on the retained evidence or finish; identical observations are now blocked",
			"avoid: do not keep mutating or validating the same workspace state without new evidence",
		}, "\n")))
	})

	It("answers the block with the exact synthetic result (RUNTIME §8.2)", func() {
		g, _ := guard.New(cfgWith(func(c *guard.Config) { c.ObservationNudgeThresholds = []int64{2} }))
		c := guard.Call{Turn: 1, ToolCallID: "x", Name: "read_file", CanonicalID: "workspace.read", ArgumentsHash: "h"}
		var d guard.Decision
		for i := range 3 {
			c.Turn, c.ToolCallID = i+1, "x"+string(rune('0'+i))
			d = g.BeforeDispatch(c)
			if d.Block == nil {
				g.AfterResult(c, guard.Result{OK: true}, guard.Evidence{})
			}
		}
		Expect(d.Block).NotTo(BeNil())
		r := d.Block.Result(c)
		Expect(r.OK).To(BeFalse())
		Expect(r.CanonicalToolID).To(Equal("workspace.read"))
		Expect(r.Trust).To(Equal("trusted"))
		Expect(r.Summary).To(Equal("Repeated observation blocked after advisory nudges."))
		Expect(*r.Error).To(Equal(guardToolError("Repeated observation blocked.")))
		Expect(r.Content).To(Equal(`{"error":{"code":"NO_PROGRESS","message":"The same observation was requested 3 times without using the retained result.","retryable":false},"ok":false}`))
	})

	It("skips the identical-repeat and cycle guards for observation tools: interleaved a,b,c,a,b,c,a all dispatch", func() {
		s := newSim(cfgWith(func(c *guard.Config) { c.MaxNoProgressEpisodes = 1 }))
		for _, p := range []string{"a", "b", "c", "a", "b", "c", "a"} {
			s.round(read("src/" + p + ".ts"))
		}
		Expect(s.dispatched).To(HaveLen(7))
		Expect(s.blocked).To(BeEmpty())
		Expect(s.actions()).To(Equal([]string{"observation_nudge@3"}))
		Expect(s.g.Episodes()).To(Equal(0))
	})

	It("still applies the identical-repeat guard to non-observation tools", func() {
		s := newSim(cfgWith(nil))
		for range 3 {
			s.round(probe("probe_a"))
		}
		Expect(s.dispatched).To(HaveLen(2))
		Expect(s.blocked).To(Equal([]string{"call-3"}))
	})
})

func guardToolError(msg string) port.ToolError {
	return port.ToolError{Code: guard.CodeNoProgress, Message: msg}
}

var _ = Describe("strict observation nudge (RUNTIME §18.2)", func() {
	strict := func(mut func(*guard.Config)) guard.Config {
		return cfgWith(func(c *guard.Config) {
			c.Policy = checkpoint.PolicyStrict
			if mut != nil {
				mut(c)
			}
		})
	}

	It("nudges the 3rd identical observation, counts an episode and still dispatches it", func() {
		s := newSim(strict(nil))
		for range 3 {
			s.round(read("src/a.ts"))
		}
		Expect(s.dispatched).To(HaveLen(3))
		Expect(s.g.Episodes()).To(Equal(1))
		Expect(s.feedback).To(Equal([]string{strings.Join([]string{
			"[GALAXY OBSERVATION NUDGE - trusted runtime state]",
			"observation: workspace.read is returning this exact result for the 3rd time.",
			"tool: read_file",
			"tool_call_id: call-3",
			"next_strategy: use the evidence already present, change the query or path, or perform the next required action",
			"avoid: re-requesting identical bounded observations",
		}, "\n")}))
	})

	DescribeTable("the repetition suffix", func(maxRepeats, calls int, want string) {
		s := newSim(strict(func(c *guard.Config) { c.MaxObservationRepeats = maxRepeats; c.MaxRepeatedToolRequests = 10 }))
		for range calls {
			s.round(read("src/a.ts"))
		}
		Expect(s.feedback[len(s.feedback)-1]).To(ContainSubstring(want))
	},
		Entry("2nd", 1, 2, "for the 2nd time."),
		Entry("3rd", 2, 3, "for the 3rd time."),
		Entry("4th", 3, 4, "for the 4th time."),
	)

	It("with raised limits (4/4/3) dispatches four identical reads without an episode", func() {
		s := newSim(strict(func(c *guard.Config) {
			c.MaxObservationRepeats, c.MaxRepeatedToolRequests, c.MaxNoProgressEpisodes = 4, 4, 3
		}))
		for range 4 {
			s.round(read("src/a.ts"))
		}
		Expect(s.dispatched).To(HaveLen(4))
		Expect(s.g.Episodes()).To(Equal(0))
	})

	It("with maxNoProgressEpisodes 1: three dispatches, the recovery round, then the 4th is blocked and the run pauses", func() {
		s := newSim(strict(func(c *guard.Config) { c.MaxNoProgressEpisodes = 1 }))
		Expect(s.runUntilPause(repeatSteps(read("src/a.ts"), 15)...)).To(BeTrue())
		Expect(s.dispatched).To(HaveLen(3))
		Expect(s.verdicts).To(Equal([]guard.BatchAction{guard.Continue, guard.Continue, guard.Recover, guard.Pause}))
	})

	It("counts two blocked observations in one round as one episode and dispatches the nudged one", func() {
		s := newSim(strict(nil))
		s.round(read("package.json"))
		s.round(read("test.mjs"))
		s.round(read("package.json"))
		s.round(read("test.mjs"))
		v := s.round(read("package.json"), read("test.mjs"))
		Expect(s.dispatched).To(HaveLen(5))
		Expect(s.blocked).To(Equal([]string{"call-6"}))
		Expect(s.g.Episodes()).To(Equal(1))
		Expect(v.Action).To(Equal(guard.Continue))
	})
})

var _ = Describe("identical repeat guard (RUNTIME §18.3)", func() {
	It("blocks the 3rd consecutive identical call with the exact result and incident", func() {
		s := newSim(cfgWith(nil))
		s.round(probe("probe_a"))
		s.round(probe("probe_a"))
		s.round(probe("probe_a"))
		Expect(s.blocked).To(Equal([]string{"call-3"}))
		Expect(s.feedback).To(ConsistOf(ContainSubstring("failure: probe_a repeated with identical arguments and workspace state\ntool: probe_a\ntool_call_id: call-3\nnext_strategy: inspect a different source or choose a materially different tool")))
	})

	It("counts only consecutive calls", func() {
		s := newSim(cfgWith(nil))
		for _, n := range []string{"probe_a", "probe_a", "probe_b", "probe_a", "probe_a"} {
			s.round(probe(n))
		}
		Expect(s.blocked).To(BeEmpty())
	})

	It("honours maxRepeatedToolRequests", func() {
		s := newSim(cfgWith(func(c *guard.Config) { c.MaxRepeatedToolRequests = 3 }))
		for range 4 {
			s.round(probe("probe_a"))
		}
		Expect(s.blocked).To(Equal([]string{"call-4"}))
	})

	It("does not fire when the state version changes between calls", func() {
		s := newSim(cfgWith(nil))
		for i := range 4 {
			s.round(mark("c", map[string]any{"n": 1}))
			s.ev.InspectedPaths = append(s.ev.InspectedPaths, string(rune('a'+i)))
			s.round(review(map[string]any{"n": i}))
		}
		Expect(s.blocked).To(BeEmpty())
	})
})

var _ = Describe("tool cycle guard (RUNTIME §18.3, §33.3)", func() {
	names := []string{"p1", "p2", "p3", "p4", "p5", "p6", "p7"}
	DescribeTable("blocks the call that completes the second repetition of a period",
		func(period int, blocked bool) {
			s := newSim(cfgWith(nil))
			for i := range 2 * period {
				s.round(probe(names[i%period]))
			}
			if blocked {
				Expect(s.blocked).To(Equal([]string{"call-" + itoa(2*period)}))
				Expect(s.feedback).To(ConsistOf(ContainSubstring("failure: a " + itoa(period) + "-call tool cycle repeated without semantic state progress")))
			} else {
				Expect(s.blocked).To(BeEmpty())
			}
		},
		Entry("period 2: A,B,A,B", 2, true),
		Entry("period 3", 3, true),
		Entry("period 4", 4, true),
		Entry("period 5", 5, true),
		Entry("period 6", 6, true),
		Entry("period 7 is never tested", 7, false),
	)

	It("keeps blocking an alternating cycle: 3 dispatches, recovery, pause (runtime test 'alternating successful tool cycle')", func() {
		s := newSim(cfgWith(nil))
		paused := s.runUntilPause(probe("probe_a"), probe("probe_b"), probe("probe_a"), probe("probe_b"), probe("probe_a"), probe("probe_b"))
		Expect(paused).To(BeTrue())
		Expect(s.dispatched).To(HaveLen(3))
		Expect(s.g.Episodes()).To(BeNumerically(">=", 2))
	})

	It("gives the exact cycle result", func() {
		s := newSim(cfgWith(nil))
		var last guard.Decision
		g := s.g
		for i, n := range []string{"a", "b", "a", "b"} {
			c := guard.Call{Turn: i + 1, ToolCallID: n + itoa(i), Name: n, CanonicalID: "test." + n, ArgumentsHash: "h"}
			last = g.BeforeDispatch(c)
			if last.Block == nil {
				g.AfterResult(c, guard.Result{OK: true}, guard.Evidence{})
			}
		}
		Expect(last.Block).To(Equal(&guard.Block{Code: "NO_PROGRESS", Message: "Repeated tool cycle blocked.",
			Summary: "Repeated tool cycle blocked by deterministic no-progress policy.",
			Detail:  "A repeated tool cycle was blocked because semantic state did not change."}))
	})

	It("does not see a cycle when the state changed within it", func() {
		s := newSim(cfgWith(nil))
		s.round(read("a"))
		s.round(probe("probe_b"))
		s.round(read("b")) // new inspection: state changes
		s.round(probe("probe_b"))
		Expect(s.blocked).To(BeEmpty())
	})
})

func itoa(n int) string {
	return strings.TrimSpace(strings.Repeat(" ", 0) + fmtInt(n))
}

func fmtInt(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return fmtInt(n/10) + string(rune('0'+n%10))
}
