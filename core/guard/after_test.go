package guard_test

import (
	"strings"

	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/guard"
	"github.com/galaxy-stack/conform/core/port"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("failed mutation family (RUNTIME §18.3)", func() {
	edit := func(i int) map[string]any {
		return map[string]any{"newText": "replacement-" + itoa(i), "oldText": "stale-fragment-" + itoa(i), "path": "src/a.ts"}
	}

	It("records an incident at the 3rd failure on one path and state, sharing the family across argument texts", func() {
		s := newSim(cfgWith(nil))
		s.round(failWrite(edit(0)))
		s.round(failWrite(edit(1)))
		Expect(s.feedback).To(BeEmpty())
		s.round(failWrite(edit(2)))
		Expect(s.feedback).To(Equal([]string{strings.Join([]string{
			"[GALAXY NO-PROGRESS FEEDBACK - trusted runtime state]",
			"failure: workspace.write failed 3 times against the same path and workspace state",
			"tool: workspace_write",
			"tool_call_id: call-3",
			"next_strategy: re-read the current file and derive a fresh hash-bound edit, or stop and request direction",
			"avoid: do not keep mutating or validating the same workspace state without new evidence",
		}, "\n")}))
		Expect(s.dispatched).To(HaveLen(3), "the guard observes; it never blocks")
	})

	It("pauses seven stale edits with different fragments after 5 calls and no writes", func() {
		s := newSim(cfgWith(nil))
		var steps []step
		for i := range 7 {
			steps = append(steps, failWrite(edit(i)))
		}
		Expect(s.runUntilPause(steps...)).To(BeTrue())
		Expect(s.dispatched).To(HaveLen(5))
		Expect(s.ev.Writes).To(BeEmpty())
	})

	It("keys by path: failures on different paths do not add up", func() {
		s := newSim(cfgWith(nil))
		for _, p := range []string{"a", "b", "a", "c", "b"} {
			s.round(failWrite(map[string]any{"path": p}))
		}
		Expect(s.feedback).To(BeEmpty())
	})

	It("uses <workspace> when path is missing or blank", func() {
		s := newSim(cfgWith(nil))
		s.round(failWrite(map[string]any{"cmd": 1}))
		s.round(failWrite(map[string]any{"path": "  "}))
		s.round(failWrite(map[string]any{"cmd": 2}))
		Expect(s.feedback).To(HaveLen(1))
	})

	It("keys by the fresh capture when one is given, else by the state version", func() {
		s := newSim(cfgWith(nil))
		for i, fs := range []string{"fp-1", "fp-2", "fp-1", "", ""} {
			st := failWrite(edit(i))
			st.failureState = fs
			s.round(st)
		}
		Expect(s.feedback).To(BeEmpty())
		s.round(failWrite(edit(9)))
		Expect(s.feedback).To(HaveLen(1))
	})

	It("ignores failures of tools without the write capability", func() {
		s := newSim(cfgWith(nil))
		for i := range 4 {
			st := failWrite(edit(i))
			st.writeCapable = false
			s.round(st)
		}
		Expect(s.feedback).To(BeEmpty())
	})
})

var _ = Describe("write-hash cycle guard (RUNTIME §18.5)", func() {
	It("flags a write returning to an earlier hash, but records it", func() {
		s := newSim(cfgWith(nil))
		s.round(write("hash-a", "hash-b"))
		Expect(s.feedback).To(BeEmpty())
		s.round(write("hash-b", "hash-a"))
		Expect(s.feedback).To(Equal([]string{strings.Join([]string{
			"[GALAXY NO-PROGRESS FEEDBACK - trusted runtime state]",
			"failure: workspace content returned to an earlier hash for: src/a.ts",
			"tool: workspace_write",
			"tool_call_id: call-2",
			"next_strategy: stop toggling content; inspect the failing evidence and choose one stable target state",
			"avoid: do not keep mutating or validating the same workspace state without new evidence",
		}, "\n")}))
		Expect(s.ev.Writes).To(HaveLen(2))
	})

	It("A→B, B→A, A→B: two episodes, the recovery round; the next A→B restarts the history and resets", func() {
		s := newSim(cfgWith(nil))
		s.round(write("hash-a", "hash-b"))
		s.round(write("hash-b", "hash-a"))
		v := s.round(write("hash-a", "hash-b"))
		Expect(s.g.Episodes()).To(Equal(2))
		Expect(v.Action).To(Equal(guard.Recover))
		n := len(s.feedback)
		s.round(write("hash-a", "hash-b"))
		Expect(s.feedback).To(HaveLen(n), "a before-state that is not the last state restarts the history")
		Expect(s.g.Episodes()).To(Equal(0), "a durable unflagged write is authored progress")
	})

	It("with maxNoProgressEpisodes 1 pauses after 3 calls", func() {
		s := newSim(cfgWith(func(c *guard.Config) { c.MaxNoProgressEpisodes = 1 }))
		Expect(s.runUntilPause(write("hash-a", "hash-b"), write("hash-b", "hash-a"), write("hash-a", "hash-b"), write("hash-a", "hash-b"))).To(BeTrue())
		Expect(s.dispatched).To(HaveLen(3))
	})

	It("names every returning path once, sorted, in one incident", func() {
		s := newSim(cfgWith(nil))
		both := func(b, a string) step {
			st := writeAt("z.ts", b, a)
			st.result.Effects.Writes = append(st.result.Effects.Writes, port.Write{Path: "m.ts", BeforeHash: strp(b), AfterHash: strp(a)})
			return st
		}
		s.round(both("x", "y"))
		Expect(s.feedback).To(BeEmpty())
		s.round(both("y", "x"))
		Expect(s.feedback).To(HaveLen(1))
		Expect(s.feedback[0]).To(ContainSubstring("earlier hash for: m.ts, z.ts\n"))
	})

	It("keys states by kind: a delete (null hash) and a re-create cycle", func() {
		s := newSim(cfgWith(nil))
		del := step{name: "workspace_write", canonical: "workspace.write", args: map[string]any{"path": "f"}, writeCapable: true,
			result: hostOK("workspace.write", &port.Effects{Writes: []port.Write{{Path: "f", BeforeHash: strp("h"), AfterHash: nil}}})}
		cre := step{name: "workspace_write", canonical: "workspace.write", args: map[string]any{"path": "f", "n": 2}, writeCapable: true,
			result: hostOK("workspace.write", &port.Effects{Writes: []port.Write{{Path: "f", BeforeHash: nil, AfterHash: strp("h")}}})}
		s.round(del)
		s.round(cre)
		Expect(s.feedback).To(ConsistOf(ContainSubstring("earlier hash for: f")))
	})
})

var _ = Describe("repeated validation failure guard (RUNTIME §16.5, §18.5)", func() {
	It("flags the 3rd failure on one id and fingerprint and pauses six failures after 5 calls", func() {
		s := newSim(cfgWith(nil))
		var steps []step
		for i := range 6 {
			steps = append(steps, validate("project.validate:test:.", "failed", map[string]any{"attempt": i, "path": "."}))
		}
		Expect(s.runUntilPause(steps...)).To(BeTrue())
		Expect(s.dispatched).To(HaveLen(5))
		Expect(s.ev.Validations).To(HaveLen(1))
		Expect(s.feedback[0]).To(ContainSubstring("failure: validation failed repeatedly without a workspace change: project.validate:test:.\n"))
		Expect(s.feedback[0]).To(ContainSubstring("next_strategy: inspect the diagnostic, make a focused change, then run the validation again\n"))
	})

	It("clears an id's counters on a pass", func() {
		s := newSim(cfgWith(nil))
		for i, st := range []string{"failed", "failed", "passed", "failed", "failed"} {
			s.round(validate("unit", st, map[string]any{"a": i}))
		}
		Expect(s.feedback).To(BeEmpty())
	})

	It("counts per fingerprint", func() {
		s := newSim(cfgWith(nil))
		for i, fp := range []string{"fp-1", "fp-2", "fp-1", "fp-2"} {
			s.fp = fp
			s.round(validate("unit", "failed", map[string]any{"a": i}))
		}
		Expect(s.feedback).To(BeEmpty())
	})
})

var _ = Describe("state version and progress accounting (RUNTIME §17)", func() {
	It("starts as the stable JSON of {runId, state: created}", func() {
		g, err := guard.New(guard.DefaultConfig("run-1"))
		Expect(err).NotTo(HaveOccurred())
		Expect(g.StateVersion()).To(Equal(`{"runId":"run-1","state":"created"}`))
	})

	It("changes on a new inspection and resets the counters; a repeated read changes nothing", func() {
		s := newSim(cfgWith(nil))
		s.round(read("a"))
		v1 := s.g.StateVersion()
		Expect(v1).To(HavePrefix("sha256:"))
		s.round(read("a"))
		Expect(s.g.StateVersion()).To(Equal(v1))
		s.round(read("b"))
		Expect(s.g.StateVersion()).NotTo(Equal(v1))
	})

	It("does not let repeated criterion marks, validations or reviews manufacture progress", func() {
		s := newSim(cfgWith(nil))
		s.ev.Criteria = []checkpoint.Criterion{{EvidenceIDs: []string{}, ID: "criterion-a", Required: true, Status: checkpoint.CriterionPending, Text: "t"}}
		s.round(mark("criterion-a", map[string]any{"attempt": 1}))
		after := s.g.StateVersion()
		s.round(mark("criterion-a", map[string]any{"attempt": 2}))
		Expect(s.g.StateVersion()).To(Equal(after), "an unchanged criterion")
		s.round(validate("unit", "passed", map[string]any{"attempt": 1}))
		v := s.g.StateVersion()
		s.round(validate("unit", "passed", map[string]any{"attempt": 2}))
		Expect(s.g.StateVersion()).To(Equal(v), "an identical validation covering no new write")
		s.round(review(map[string]any{"attempt": 1}))
		r := s.g.StateVersion()
		s.round(review(map[string]any{"attempt": 2}))
		Expect(s.g.StateVersion()).To(Equal(r), "an identical review covering no new write")
	})

	It("a validation covering a new write is progress, but validations alone never reset the counters", func() {
		s := newSim(cfgWith(nil))
		s.round(probe("probe_a"))
		s.round(probe("probe_b"))
		s.round(probe("probe_a"))
		s.round(probe("probe_b")) // cycle: one episode
		Expect(s.g.Episodes()).To(Equal(1))
		s.round(validate("unit", "passed", map[string]any{"a": 1}))
		Expect(s.g.Episodes()).To(Equal(1))
		s.round(write("x", "y"))
		Expect(s.g.Episodes()).To(Equal(0))
	})

	It("does not reset on a call flagged by a guard in the same call", func() {
		s := newSim(cfgWith(func(c *guard.Config) { c.Policy = checkpoint.PolicyStrict; c.MaxRepeatedToolRequests = 5 }))
		s.round(read("a"))
		s.round(read("a"))
		nudged := read("a")
		nudged.result.Effects = &port.Effects{InspectedPaths: []string{"a", "new"}}
		s.round(nudged)
		Expect(s.g.Episodes()).To(Equal(1), "the strict nudge flagged the call, so its new inspection does not reset")
	})

	It("lets an approval denial with a state version change state, and records host state versions", func() {
		g, _ := guard.New(guard.DefaultConfig("r"))
		c := guard.Call{Turn: 1, ToolCallID: "c1", Name: "run_command", CanonicalID: "command.run", ArgumentsHash: "h"}
		g.BeforeDispatch(c)
		before := g.StateVersion()
		rep := g.AfterResult(c, guard.Result{OK: false, HostEffects: &port.Effects{Approval: "denied", StateVersion: "v1"}}, guard.Evidence{})
		Expect(rep.StateChanged).To(BeTrue())
		Expect(rep.Reset).To(BeFalse(), "a state version alone is not authored progress")
		Expect(g.StateVersion()).NotTo(Equal(before))
		Expect(g.Export(nil).HostStateVersions).To(Equal([]checkpoint.HostStateVersion{{Key: "command.run", Value: "v1"}}))
	})

	It("ignores effects without host authority", func() {
		g, _ := guard.New(guard.DefaultConfig("r"))
		c := guard.Call{Turn: 1, ToolCallID: "c1", Name: "n", CanonicalID: "x", ArgumentsHash: "h"}
		g.BeforeDispatch(c)
		rep := g.AfterResult(c, guard.Result{OK: true}, guard.Evidence{InspectedPaths: []string{"a"}})
		Expect(rep.StateChanged).To(BeFalse())
	})

	It("clears observation families on a successful write", func() {
		s := newSim(cfgWith(nil))
		s.round(read("a"))
		s.round(read("a"))
		Expect(s.g.Export(nil).ObservationFamilies).To(HaveLen(1))
		s.round(write("x", "y"))
		Expect(s.g.Export(nil).ObservationFamilies).To(BeEmpty())
		s.round(read("a"))
		Expect(s.g.Export(nil).ObservationFamilies[0].Count).To(Equal(int64(1)))
	})
})
