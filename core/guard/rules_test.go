package guard_test

import (
	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/guard"
	"github.com/galaxy-stack/conform/core/port"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// failThrice makes a write-capable call fail three times at turn 1 against
// the same path and state, the third failure being an incident.
func failThrice(g *guard.Guard, id string) guard.Report {
	GinkgoHelper()
	var rep guard.Report
	for i := range 3 {
		c := guard.Call{Turn: 1, ToolCallID: id + itoa(i), Name: "write_file", CanonicalID: "workspace.write",
			ArgumentsHash: "h" + itoa(i), Arguments: map[string]any{"path": "src/a.ts"}}
		g.BeforeDispatch(c)
		rep = g.AfterResult(c, guard.Result{OK: false, WriteCapable: true}, guard.Evidence{})
	}
	return rep
}

var _ = Describe("the guard, rule by rule", func() {
	Describe("episodes (RUNTIME §18.6)", func() {
		It("counts an incident of the very first turn", func() {
			g, _ := guard.New(guard.DefaultConfig("r"))
			Expect(failThrice(g, "a").Feedback).NotTo(BeEmpty())
			Expect(g.Episodes()).To(Equal(1))
		})
		It("counts an incident of turn 1 after a restore", func() {
			g, _ := guard.New(guard.DefaultConfig("r"))
			Expect(g.Restore(&checkpoint.Checkpoint{ContentHash: "sha256:x"})).To(Succeed())
			failThrice(g, "a")
			Expect(g.Episodes()).To(Equal(1))
		})
		It("counts an incident of the same turn again after progress reset the counters", func() {
			g, _ := guard.New(guard.DefaultConfig("r"))
			failThrice(g, "a")
			c := guard.Call{Turn: 1, ToolCallID: "p", Name: "read_file", CanonicalID: "workspace.read", ArgumentsHash: "r"}
			g.BeforeDispatch(c)
			rep := g.AfterResult(c, guard.Result{OK: true, HostEffects: &port.Effects{InspectedPaths: []string{"b"}}}, guard.Evidence{InspectedPaths: []string{"b"}})
			Expect(rep.Reset).To(BeTrue())
			Expect(g.Episodes()).To(Equal(0))
			failThrice(g, "b")
			Expect(g.Episodes()).To(Equal(1))
		})
	})

	Describe("which host effects can change the state version (RUNTIME §17 step 4)", func() {
		// Every result carries new evidence; only the host effects decide
		// whether the guard looks at it.
		ev := guard.Evidence{InspectedPaths: []string{"new"}}
		after := func(fx *port.Effects) guard.Report {
			g, _ := guard.New(guard.DefaultConfig("r"))
			c := guard.Call{Turn: 1, ToolCallID: "c", Name: "n", CanonicalID: "x.y", ArgumentsHash: "h"}
			g.BeforeDispatch(c)
			return g.AfterResult(c, guard.Result{OK: true, HostEffects: fx}, ev)
		}
		DescribeTable("a result with one state effect changes it",
			func(fx *port.Effects, durable bool) {
				rep := after(fx)
				Expect(rep.StateChanged).To(BeTrue())
				Expect(rep.Reset).To(Equal(durable))
			},
			Entry("a state version", &port.Effects{StateVersion: "v1"}, false),
			Entry("a diff review", &port.Effects{DiffReview: &port.DiffReview{DiffHash: "d"}}, true),
			Entry("inspected paths", &port.Effects{InspectedPaths: []string{"a"}}, true),
			Entry("a plan", &port.Effects{Plan: &port.Plan{}}, true),
			Entry("research sources", &port.Effects{ResearchSources: []port.ResearchSource{{}}}, true),
			Entry("validations", &port.Effects{Validations: []port.ValidationEntry{{}}}, false),
			Entry("satisfied criteria", &port.Effects{AcceptanceCriteriaSatisfied: []string{"c"}}, true),
			Entry("waived criteria", &port.Effects{AcceptanceCriteriaWaived: []string{"c"}}, true),
		)
		It("ignores a result whose host effects hold no state effect, whatever the evidence", func() {
			rep := after(&port.Effects{NextAction: "x", InspectedPaths: []string{}, ResearchSources: []port.ResearchSource{}, Validations: []port.ValidationEntry{},
				AcceptanceCriteriaSatisfied: []string{}, AcceptanceCriteriaWaived: []string{}})
			Expect(rep.StateChanged).To(BeFalse())
		})
	})

	Describe("the semantic evidence projection (RUNTIME §17 step 6)", func() {
		// version is the state version after one result whose evidence is
		// ev; equal versions mean equal projections.
		version := func(ev guard.Evidence) string {
			g, _ := guard.New(guard.DefaultConfig("r"))
			c := guard.Call{Turn: 1, ToolCallID: "c", Name: "n", CanonicalID: "project.validate", ArgumentsHash: "h"}
			g.BeforeDispatch(c)
			g.AfterResult(c, guard.Result{OK: true, HostEffects: &port.Effects{Validations: []port.ValidationEntry{{}}}}, ev)
			return g.StateVersion()
		}
		val := func(seq int64, status checkpoint.ValidationStatus) checkpoint.ValidationRecord {
			return checkpoint.ValidationRecord{ID: "unit", Scope: checkpoint.ScopeWorkspace, Sequence: seq, Status: status, WorkspaceFingerprint: "fp"}
		}
		validations := func(vs ...checkpoint.ValidationRecord) guard.Evidence { return guard.Evidence{Validations: vs} }
		It("keeps the latest validation per id, whatever the array order", func() {
			latest := version(validations(val(2, checkpoint.ValidationPassed)))
			Expect(version(validations(val(1, checkpoint.ValidationFailed), val(2, checkpoint.ValidationPassed)))).To(Equal(latest))
			Expect(version(validations(val(2, checkpoint.ValidationPassed), val(1, checkpoint.ValidationFailed)))).To(Equal(latest))
			Expect(version(validations(val(1, checkpoint.ValidationFailed)))).NotTo(Equal(latest))
		})
		It("lets the later of two validations with the same sequence win", func() {
			Expect(version(validations(val(2, checkpoint.ValidationFailed), val(2, checkpoint.ValidationPassed)))).
				To(Equal(version(validations(val(2, checkpoint.ValidationPassed)))))
		})
		It("credits a review with the writes strictly before it", func() {
			ev := func(reviewSeq int64) guard.Evidence {
				return guard.Evidence{Writes: []checkpoint.Edit{{Path: "src/a.ts", Sequence: 1, WorkspaceFingerprint: "fp"}, {Path: "src/b.ts", Sequence: 3, WorkspaceFingerprint: "fp"}},
					DiffReview: &checkpoint.DiffReview{DiffHash: "d", Sequence: reviewSeq, WorkspaceFingerprint: "fp"}}
			}
			// Covered write sequence by review sequence: 1→0, 2→1, 3→1, 4→3, 5→3.
			Expect(version(ev(2))).NotTo(Equal(version(ev(1))))
			Expect(version(ev(3))).To(Equal(version(ev(2))), "a review at a write's own sequence does not cover it")
			Expect(version(ev(4))).NotTo(Equal(version(ev(3))))
			Expect(version(ev(5))).To(Equal(version(ev(4))))
		})
	})

	It("accepts up to 8 observation nudge thresholds", func() {
		cfg := guard.DefaultConfig("r")
		cfg.ObservationNudgeThresholds = []int64{2, 3, 4, 5, 6, 7, 8, 9}
		_, err := guard.New(cfg)
		Expect(err).NotTo(HaveOccurred())
		cfg.ObservationNudgeThresholds = append(cfg.ObservationNudgeThresholds, 10)
		_, err = guard.New(cfg)
		Expect(err).To(MatchError("guard: 9 observation nudge thresholds, want 1 to 8"))
	})

	It("reads a kind-less write with a hash as a file when it returns to an earlier state (RUNTIME §18.5)", func() {
		s := newSim(cfgWith(nil))
		kinded := write("hash-a", "hash-b")
		kinded.result.Effects.Writes[0].BeforeKind, kinded.result.Effects.Writes[0].AfterKind = "file", "file"
		s.round(kinded)
		Expect(s.feedback).To(BeEmpty())
		s.round(write("hash-b", "hash-a"))
		Expect(s.feedback).To(ContainElement(ContainSubstring("failure: workspace content returned to an earlier hash for: src/a.ts")))
	})

	It("lists no failed tools in a recovery round whose calls all succeeded (Appendix A.3)", func() {
		s := newSim(cfgWith(nil))
		s.round(write("hash-a", "hash-b"))
		s.round(write("hash-b", "hash-a"))
		v := s.round(write("hash-a", "hash-b"))
		Expect(v.Action).To(Equal(guard.Recover))
		Expect(v.Feedback).To(HavePrefix("[GALAXY NO-PROGRESS RECOVERY - trusted runtime state]"))
		Expect(v.Feedback).NotTo(ContainSubstring("failed tools this round:"))
	})

	It("keeps a failure count that was raised again through 127 other keys (the counters hold 128)", func() {
		s := newSim(cfgWith(nil))
		at := func(p string, i int) step {
			return failWrite(map[string]any{"path": p, "newText": "n" + itoa(i), "oldText": "o"})
		}
		s.round(at("p", 0))
		s.round(at("p", 1))
		for i := range 127 {
			s.round(at("q"+itoa(i), i))
		}
		Expect(s.feedback).To(BeEmpty())
		s.round(at("p", 2))
		Expect(s.feedback).To(ContainElement(ContainSubstring("failure: workspace.write failed 3 times against the same path and workspace state")))
	})
})
