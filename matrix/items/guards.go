package items

import (
	"fmt"
	"strings"

	"github.com/galaxy-stack/conform/matrix"
	"github.com/galaxy-stack/conform/matrix/kit"
	. "github.com/onsi/gomega"
)

// The validation evidence and no-progress guard items: rules of the
// bundled core (the completion gate, RUNTIME §20; the no-progress guards,
// §18, and their restoration, §21.6), exercised through the host. The host
// keeps inodes, attests validations honestly and answers a stale edit the
// same way twice; the core faults of core/faults fail each item.

// appValidation is the stable ID the fixtures' app test validates under.
const appValidation = "project.validate:test:app"

// rejectedWith asserts every completion rejection of the run names each of
// codes and none of not, by the spec's issue codes, and that there was one.
func rejectedWith(o *kit.Outcome, codes, not []string) {
	rs := o.RejectionCodes()
	Expect(rs).NotTo(BeEmpty(), "%s: the core never refused the final report; the gate must refuse it", o.File)
	for i, r := range rs {
		for _, c := range codes {
			Expect(r).To(ContainElement(c), "%s: completion rejection %d names the issues %v; it must name %s", o.File, i+1, r, c)
		}
		for _, c := range not {
			Expect(r).NotTo(ContainElement(c), "%s: completion rejection %d names %s, which this run does not have (issues %v)", o.File, i+1, c, r)
		}
	}
}

// attested asserts the host attested exactly the validation appValidation
// with status in callID's result.
func attested(o *kit.Outcome, callID, status string) {
	Expect(o.ValidationStatuses(callID)).To(Equal(map[string]string{appValidation: status}),
		"%s: %s must attest the one validation %s as %s", o.File, callID, appValidation, status)
}

var _ = matrix.DescribeItem(matrix.Item{
	ID: 4, Name: "failed-stale-validation", Area: "tools", Title: "failed and stale validation",
	Scope: matrix.ScopeCore, Tools: []string{"workspace.write", "project.validate"}, Guarantees: nil,
	Contract: "hosts/wire/CONTRACTS.md#completion-gate", Guarantee: "A failed validation, or one older than the latest write, MUST NOT let the run complete.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		// The test fails on the written file: the gate refuses with
		// VALIDATION_FAILED (catches gate-accept-failed-validation).
		"failed-validation.json": kit.On("L4", func(o *kit.Outcome) {
			attested(o, "04-failed-validate", "failed")
			rejectedWith(o, []string{"VALIDATION_FAILED"}, []string{"WORKSPACE_EVIDENCE_STALE"})
		}),
		// The test passed, then the file it covers was rewritten: the
		// validation is stale and the write unvalidated (catches
		// gate-write-keeps-validation).
		"stale-validation.json": kit.On("L4", func(o *kit.Outcome) {
			attested(o, "04-stale-validate", "passed")
			rejectedWith(o, []string{"WORKSPACE_EVIDENCE_STALE", "WRITE_NOT_VALIDATED"}, []string{"VALIDATION_FAILED"})
		}),
	})
})

var _ = matrix.DescribeItem(matrix.Item{
	ID: 19, Name: "validation-supersedes", Area: "tools", Title: "a passing validation supersedes older failed evidence with the same ID",
	Scope: matrix.ScopeCore, Tools: []string{"project.validate"}, Guarantees: nil,
	Contract: "hosts/wire/CONTRACTS.md#completion-gate", Guarantee: "A newer passing validation with the same stable ID MUST supersede the older failure.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		// Failed, fixed, passed under the same ID: the first final report
		// is accepted (catches gate-oldest-validation-wins).
		"fixed-after-failure.json": kit.On("L19", func(o *kit.Outcome) {
			attested(o, "19-validate-failed", "failed")
			attested(o, "19-validate-passed", "passed")
			Expect(o.RejectionCodes()).To(BeEmpty(), "%s: the core refused the final report although the newer validation of %s passed", o.File, appValidation)
		}),
	})
})

var _ = matrix.DescribeItem(matrix.Item{
	ID: 21, Name: "identical-stale-edit", Area: "runtime", Title: "identical stale edits are blocked without changing file content or inode",
	Scope: matrix.ScopeBoth, Tools: []string{"workspace.edit"}, Guarantees: []string{"W3"},
	Contract: "hosts/wire/tools/workspace.edit.md#choices", Guarantee: "A repeated identical stale edit MUST be blocked without changing the file's bytes or inode.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		// The host refuses the first two PRECONDITION_FAILED and keeps the
		// file's inode (catches replace-inode-on-failure); the core blocks
		// the other three before dispatch (catches
		// guard-skip-identical-repeat).
		"identical-stale-edits.json": kit.On("W3 L21", func(o *kit.Outcome) {
			o.Dispatched("edit_file", "edit_file")
			for _, id := range []string{"21-stale-1", "21-stale-2"} {
				r := o.Answer(id)
				Expect(r.OK).To(BeFalse(), "%s: the host accepted the stale edit %s", o.File, id)
				Expect(r.Error).NotTo(BeNil(), "%s: the host's refusal of %s carries no error", o.File, id)
				Expect(r.Error.Code).To(Equal("PRECONDITION_FAILED"), "%s: the host refused the stale edit %s with %s", o.File, id, r.Error.Code)
			}
			o.KeptInode("safe.txt")
		}),
	})
})

var _ = matrix.DescribeItem(matrix.Item{
	ID: 22, Name: "varied-stale-edit", Area: "runtime", Title: "varied stale edit arguments on one path/state still reach a bounded pause",
	Scope: matrix.ScopeCore, Tools: []string{"workspace.edit"}, Guarantees: nil,
	Contract: "hosts/wire/CONTRACTS.md#no-progress-guards", Guarantee: "Varied failed edits on one path and state MUST reach a bounded pause.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		// Five different stale edits of safe.txt all reach the host and
		// fail; the third to fifth are incidents, and the run pauses after
		// the recovery round (catches guard-skip-failed-family).
		"varied-stale-edits.json": kit.On("L22", func(o *kit.Outcome) {
			Expect(o.ExecuteCountIn(1)).To(Equal(5), "%s: every varied stale edit must reach the host", o.File)
			cp, ok := o.CheckpointOf("pause")
			if !ok {
				return
			}
			Expect(cp.NoProgress).NotTo(BeNil(), "%s: the pause checkpoint has no noProgress state", o.File)
			var counts []int64
			for _, f := range cp.NoProgress.FailedToolFamilies {
				if strings.HasPrefix(f.Key, "workspace.edit:safe.txt:") {
					counts = append(counts, f.Count)
				}
			}
			Expect(counts).To(Equal([]int64{5}), "%s: the pause checkpoint must count the five failed edits of safe.txt as one family on one state", o.File)
		}),
	})
})

var _ = matrix.DescribeItem(matrix.Item{
	ID: 23, Name: "write-hash-cycle", Area: "runtime", Title: "A→B→A→B write-hash cycles pause rather than oscillate indefinitely",
	Scope: matrix.ScopeCore, Tools: []string{"workspace.write"}, Guarantees: nil,
	Contract: "hosts/wire/CONTRACTS.md#no-progress-guards", Guarantee: "Write-hash cycles MUST pause the run rather than oscillate.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		// start→A→B→A→B→A: the third write returns to A, the fourth to B
		// (the recovery round), the fifth pauses the run (catches
		// guard-skip-write-hash-cycle).
		"toggled-writes.json": kit.On("L23", func(o *kit.Outcome) {
			var after []string
			for i := 1; i <= 5; i++ {
				id := fmt.Sprintf("23-write-%d", i)
				w := o.Answer(id)
				Expect(w.Effects).NotTo(BeNil(), "%s: %s attests no effects", o.File, id)
				Expect(w.Effects.Writes).To(HaveLen(1), "%s: %s must attest one write of mode.txt", o.File, id)
				Expect(w.Effects.Writes[0].AfterHash).NotTo(BeNil(), "%s: %s attests a removal of mode.txt", o.File, id)
				after = append(after, *w.Effects.Writes[0].AfterHash)
			}
			Expect(after[0]).NotTo(Equal(after[1]), "%s: the two contents must hash differently", o.File)
			Expect([]string{after[2], after[4], after[3]}).To(Equal([]string{after[0], after[0], after[1]}),
				"%s: the writes must alternate between the two content hashes", o.File)
		}),
	})
})

var _ = matrix.DescribeItem(matrix.Item{
	ID: 24, Name: "repeated-validation-failure", Area: "runtime", Title: "repeated validation failure on one workspace fingerprint is bounded",
	Scope: matrix.ScopeCore, Tools: []string{"project.validate"}, Guarantees: nil,
	Contract: "hosts/wire/CONTRACTS.md#no-progress-guards", Guarantee: "Repeated validation failure on one fingerprint MUST be bounded.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		// The same test fails five times on an unchanged workspace (each
		// call with other arguments, so the identical-repeat guard stays
		// out of it); the run pauses (catches
		// guard-skip-repeated-validation).
		"unchanged-failures.json": kit.On("L24", func(o *kit.Outcome) {
			for i := 1; i <= 5; i++ {
				attested(o, fmt.Sprintf("24-validate-%d", i), "failed")
			}
			Expect(o.RejectionCodes()).To(BeEmpty(), "%s: the run must pause before any final report", o.File)
		}),
	})
})

var _ = matrix.DescribeItem(matrix.Item{
	ID: 31, Name: "counters-survive-resume", Area: "runtime", Title: "exact-repeat and failed-mutation-family counters survive pause/resume",
	Scope: matrix.ScopeCore, Tools: []string{"workspace.edit"}, Guarantees: nil,
	Contract: "hosts/wire/CONTRACTS.md#no-progress-guards", Guarantee: "No-progress counters MUST survive pause and resume.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		// Two identical stale edits, a pause, a fresh-host resume: the
		// third identical edit is blocked before dispatch (catches
		// resume-drops-repeat-count).
		"identical-repeat-resume.json": kit.On("L31", func(o *kit.Outcome) {
			Expect(o.ExecuteCountIn(1)).To(Equal(2), "%s: both identical stale edits before the pause must reach the host", o.File)
			o.NoExecuteIn(2)
			cp, ok := o.FirstCheckpointOf("pause")
			if !ok {
				return
			}
			Expect(cp.NoProgress).NotTo(BeNil(), "%s: the first pause checkpoint has no noProgress state", o.File)
			p := cp.NoProgress.PreviousTool
			Expect(p).NotTo(BeNil(), "%s: the first pause checkpoint does not record the repeated edit_file call", o.File)
			Expect([]any{p.Name, p.Repetitions}).To(Equal([]any{"edit_file", int64(2)}), "%s: the first pause checkpoint must record edit_file repeated twice", o.File)
		}),
		// Two varied stale edits, a pause, a fresh-host resume: the third
		// to fifth continue the family count, so the run pauses again
		// after three more (catches resume-drops-failed-families).
		"failed-family-resume.json": kit.On("L31", func(o *kit.Outcome) {
			Expect([]int{o.ExecuteCountIn(1), o.ExecuteCountIn(2)}).To(Equal([]int{2, 3}),
				"%s: two varied stale edits must reach the first host process and three the resumed one", o.File)
			cp, ok := o.FirstCheckpointOf("pause")
			if !ok {
				return
			}
			Expect(cp.NoProgress).NotTo(BeNil(), "%s: the first pause checkpoint has no noProgress state", o.File)
			var counts []int64
			for _, f := range cp.NoProgress.FailedToolFamilies {
				if strings.HasPrefix(f.Key, "workspace.edit:safe.txt:") {
					counts = append(counts, f.Count)
				}
			}
			Expect(counts).To(Equal([]int64{2}), "%s: the first pause checkpoint must count the two failed edits of safe.txt as one family", o.File)
		}),
	})
})
