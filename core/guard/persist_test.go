package guard_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/guard"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"pgregory.net/rapid"
)

// pauseResume exports s's guard into a checkpoint carrying s's evidence,
// sends the noProgress member through JSON, and restores a fresh guard
// into a new sim that continues the run.
func pauseResume(s *sim, cfg guard.Config) *sim {
	np := s.g.Export(s.last)
	data, err := json.Marshal(np)
	Expect(err).NotTo(HaveOccurred())
	var back checkpoint.NoProgress
	Expect(json.Unmarshal(data, &back)).To(Succeed())
	cp := &checkpoint.Checkpoint{ContentHash: "sha256:cp-" + fmt.Sprint(s.seq)}
	cp.NoProgress = &back
	cp.Edits = s.ev.Writes
	cp.Validation = s.ev.Validations
	r := newSim(cfg)
	Expect(r.g.Restore(cp)).To(Succeed())
	r.turn, r.toolCalls, r.seq, r.ev, r.last = s.turn, s.toolCalls, s.seq, s.ev, s.last
	return r
}

var _ = Describe("export and restore (RUNTIME §21.1, §21.6)", func() {
	It("exports the noProgress member with its policy, thresholds and sorted lists", func() {
		s := newSim(cfgWith(nil))
		s.round(read("b"))
		s.round(read("a"))
		s.round(read("a"))
		np := s.g.Export(s.last)
		Expect(np.Policy).To(Equal(checkpoint.PolicyAdvisory))
		Expect(np.ObservationNudgeThresholds).To(Equal([]int64{3, 5, 8}))
		Expect(np.ObservationFamilies).To(HaveLen(2))
		Expect(np.ObservationFamilies[0].Key < np.ObservationFamilies[1].Key).To(BeTrue())
		Expect(np.PreviousTool).To(Equal(&checkpoint.PreviousTool{ArgumentsHash: hashOf(map[string]any{"path": "a"}), Name: "read_file", Repetitions: 1}))
		Expect(np.ToolCycleSuffix).To(Equal([]checkpoint.CycleEntry{{ArgumentsHash: hashOf(map[string]any{"path": "a"}), Name: "read_file"}}))
		Expect(np.FailedToolFamilies).NotTo(BeNil())
	})

	It("omits previousTool when the last call is not the remembered fingerprint on the current state", func() {
		s := newSim(cfgWith(nil))
		s.round(read("a"))
		Expect(s.g.Export(s.last).PreviousTool).To(BeNil(), "the read changed the state version")
		s.round(probe("p"))
		Expect(s.g.Export(s.last).PreviousTool).NotTo(BeNil())
		Expect(s.g.Export(&checkpoint.ToolCallRecord{Name: "other", ArgumentsHash: "h"}).PreviousTool).To(BeNil())
		Expect(s.g.Export(nil).PreviousTool).To(BeNil())
	})

	It("takes the last 12 cycle entries and then keeps the current-state ones (audit correction)", func() {
		s := newSim(cfgWith(nil))
		for i := range 13 {
			s.round(probe("p" + itoa(i)))
		}
		np := s.g.Export(s.last)
		Expect(np.ToolCycleSuffix).To(HaveLen(12))
		Expect(np.ToolCycleSuffix[0].Name).To(Equal("p1"))
		s.round(read("x"))
		Expect(s.g.Export(s.last).ToolCycleSuffix).To(BeEmpty(), "every entry predates the new state")
	})

	It("keeps the last 128 sorted observation families", func() {
		s := newSim(cfgWith(nil))
		g := s.g
		for i := range 130 {
			c := guard.Call{Turn: i + 1, ToolCallID: fmt.Sprintf("c%d", i), Name: "read_file", CanonicalID: "workspace.read", ArgumentsHash: fmt.Sprintf("h%03d", i)}
			g.BeforeDispatch(c)
			g.AfterResult(c, guard.Result{OK: true}, guard.Evidence{})
		}
		fams := g.Export(nil).ObservationFamilies
		Expect(fams).To(HaveLen(128))
		Expect(fams[0].Key).To(Equal("workspace.read:h002"))
	})

	It("bounds failed families at 128, evicting the least recently updated", func() {
		g, _ := guard.New(guard.DefaultConfig("r"))
		for i := range 130 {
			c := guard.Call{Turn: i + 1, ToolCallID: fmt.Sprintf("c%d", i), Name: "w", CanonicalID: "workspace.write", ArgumentsHash: "h",
				Arguments: map[string]any{"path": fmt.Sprintf("p%03d", i)}}
			g.BeforeDispatch(c)
			g.AfterResult(c, guard.Result{OK: false, WriteCapable: true}, guard.Evidence{})
		}
		fams := g.Export(nil).FailedToolFamilies
		Expect(fams).To(HaveLen(128))
		Expect(fams[0].Key).To(HavePrefix("workspace.write:p002:"))
	})

	It("a pause after A,B,A and a resume with B blocks B (runtime test 'fresh-host resume preserves an incomplete cycle')", func() {
		cfg := cfgWith(nil)
		s := newSim(cfg)
		s.round(probe("probe_a"))
		s.round(probe("probe_b"))
		s.round(probe("probe_a"))
		r := pauseResume(s, cfg)
		Expect(r.g.StateVersion()).To(Equal(hashOf(map[string]string{"checkpoint": "sha256:cp-3"})))
		r.round(probe("probe_b"))
		Expect(r.blocked).To(Equal([]string{"call-4"}))
	})

	It("keeps the identical-repeat count across the pause", func() {
		cfg := cfgWith(nil)
		s := newSim(cfg)
		s.round(probe("p"))
		s.round(probe("p"))
		r := pauseResume(s, cfg)
		r.round(probe("p"))
		Expect(r.blocked).To(HaveLen(1))
	})

	It("keeps observation family counts across the pause", func() {
		cfg := cfgWith(nil)
		s := newSim(cfg)
		for range 8 {
			s.round(read("a"))
		}
		r := pauseResume(s, cfg)
		r.round(read("a"))
		Expect(r.actions()).To(Equal([]string{"observation_blocked@9"}))
	})

	It("rebuilds the write-hash history from the edits: the resumed A→B still returns", func() {
		cfg := cfgWith(nil)
		s := newSim(cfg)
		s.round(write("hash-a", "hash-b"))
		s.round(write("hash-b", "hash-a"))
		Expect(s.g.Episodes()).To(Equal(1))
		r := pauseResume(s, cfg)
		Expect(r.g.Episodes()).To(Equal(1))
		v := r.round(write("hash-a", "hash-b"))
		Expect(r.feedback[0]).To(ContainSubstring("returned to an earlier hash"))
		Expect(v.Action).To(Equal(guard.Recover), "resumed segments get a fresh recovery round")
	})

	DescribeTable("restores episodes as min(2, max(recorded, cycling calls + repeated validation episodes)) (DECISIONS 11)",
		func(recorded int64, edits []checkpoint.Edit, validations []checkpoint.ValidationRecord, want int) {
			g, _ := guard.New(cfgWith(func(c *guard.Config) { c.MaxNoProgressEpisodes = 5 }))
			cp := &checkpoint.Checkpoint{ContentHash: "sha256:x"}
			cp.NoProgress = &checkpoint.NoProgress{Episodes: recorded}
			cp.Edits, cp.Validation = edits, validations
			Expect(g.Restore(cp)).To(Succeed())
			Expect(g.Episodes()).To(Equal(want))
		},
		Entry("recorded 1", int64(1), nil, nil, 1),
		Entry("recorded 5 is capped at 2 even with a budget of 5", int64(5), nil, nil, 2),
		Entry("one cycling write", int64(0), []checkpoint.Edit{edit("a", "b", "c1"), edit("b", "a", "c2")}, nil, 1),
		Entry("three failures on one fingerprint give one", int64(0), nil, fails("unit", "fp", 3), 1),
		Entry("five failures give three, capped at 2", int64(0), nil, fails("unit", "fp", 5), 2),
		Entry("a pass clears earlier failures", int64(0), nil, append(fails("unit", "fp", 3), checkpoint.ValidationRecord{ID: "unit", Status: checkpoint.ValidationPassed}), 0),
	)

	It("restores old checkpoints without noProgress and refuses misuse", func() {
		g, _ := guard.New(guard.DefaultConfig("r"))
		Expect(g.Restore(&checkpoint.Checkpoint{ContentHash: "sha256:x"})).To(Succeed())
		Expect(g.Episodes()).To(Equal(0))
		Expect(g.Restore(nil)).To(MatchError(ContainSubstring("content hash")))
		h, _ := guard.New(guard.DefaultConfig("r"))
		h.BeforeDispatch(guard.Call{Turn: 1, ToolCallID: "c", Name: "n", ArgumentsHash: "h"})
		Expect(h.Restore(&checkpoint.Checkpoint{ContentHash: "sha256:x"})).To(MatchError(ContainSubstring("fresh guard")))
	})
})

func edit(before, after, id string) checkpoint.Edit {
	return checkpoint.Edit{BeforeHash: strp(before), AfterHash: strp(after), Path: "src/a.ts", ToolCallID: id}
}

func fails(id, fp string, n int) []checkpoint.ValidationRecord {
	out := make([]checkpoint.ValidationRecord, n)
	for i := range out {
		out[i] = checkpoint.ValidationRecord{ID: id, Status: checkpoint.ValidationFailed, WorkspaceFingerprint: fp}
	}
	return out
}

// TestPauseResumeSameDecisions: after any run of calls, a guard exported to
// JSON and restored makes the same block and nudge decisions as the guard
// that never paused, for every continuation without state effects.
func TestPauseResumeSameDecisions(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := guard.DefaultConfig("run-prop")
		if rapid.Bool().Draw(t, "strict") {
			cfg.Policy = checkpoint.PolicyStrict
		}
		kinds := []func(int) step{
			func(int) step { return probe("probe_a") },
			func(int) step { return probe("probe_b") },
			func(int) step { return read("a") },
			func(int) step { return read("b") },
			func(i int) step { return read(fmt.Sprintf("new-%d", i)) },
			func(int) step { st := read("a"); st.result.Effects, st.result.EffectsAuthority = nil, ""; return st },
		}
		// After the pause only calls without state effects: the first state
		// effect after a resume re-bases the state version (RUNTIME §21.6).
		stateless := []int{0, 1, 5}
		pre := rapid.SliceOfN(rapid.IntRange(0, len(kinds)-1), 0, 20).Draw(t, "before")
		post := rapid.SliceOfN(rapid.SampledFrom(stateless), 1, 20).Draw(t, "after")
		seq, cut := append(pre, post...), len(pre)
		a := newSim(cfg)
		for i, k := range seq[:cut] {
			a.round(kinds[k](i))
		}
		g := NewGomegaWithT(t)
		np := a.g.Export(a.last)
		data, err := json.Marshal(np)
		g.Expect(err).NotTo(HaveOccurred())
		var back checkpoint.NoProgress
		g.Expect(json.Unmarshal(data, &back)).To(Succeed())
		cp := &checkpoint.Checkpoint{ContentHash: "sha256:prop"}
		cp.NoProgress = &back
		b := newSim(cfg)
		g.Expect(b.g.Restore(cp)).To(Succeed())
		b.turn, b.toolCalls, b.seq, b.ev, b.last = a.turn, a.toolCalls, a.seq, a.ev, a.last
		a.feedback, a.policy, a.blocked = nil, nil, nil
		for i, k := range seq[cut:] {
			da, db := decide(a, kinds[k](cut+i)), decide(b, kinds[k](cut+i))
			g.Expect(db).To(Equal(da), "call %d after the pause", i)
		}
	})
}

// decide runs one call through s and returns what the model would see of
// the guard's decision.
func decide(s *sim, st step) string {
	nf, np, nb := len(s.feedback), len(s.policy), len(s.blocked)
	s.round(st)
	fb := []string{}
	for _, f := range s.feedback[nf:] {
		if !strings.HasPrefix(f, "[GALAXY NO-PROGRESS RECOVERY") {
			fb = append(fb, f)
		}
	}
	var acts []string
	for _, p := range s.policy[np:] {
		if p.Action != guard.ActionNoProgressRecoveryTurn {
			acts = append(acts, fmt.Sprintf("%s@%d", p.Action, p.Attempt))
		}
	}
	return fmt.Sprint(fb, acts, len(s.blocked)-nb)
}
