package matrix

import (
	"encoding/json"
	"fmt"

	"github.com/galaxy-stack/conform/hosts/wire"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Item 28: required containment with no verified backend refuses before
// spawn, best-effort execution is never labelled sandboxed, and a
// verified backend runs the command contained. The premise of the first
// two is set through initialize (conform.forbidContainmentBackends), never
// assumed from the machine; the third is not applicable where the host
// reports no verified backend.
var _ = describeItem(28, func(c *TestContext) {
	c.scenarios(map[string]check{
		// Catches spawn-without-containment (forbidden.txt exists, the
		// result is ok) and sandbox-label-best-effort (initialize claims
		// a verified backend although every backend is forbidden).
		"unavailable-refuses.json": func(o *outcome) {
			c := o.containment()
			Expect(c.Mode).To(Equal(wire.ContainmentRequired), "%s: initialize reports containment mode %q; the harness asked for required", o.File, c.Mode)
			unverified(o, c)
			r := o.answer("28-unavailable-run")
			Expect(r.Error).NotTo(BeNil(), "%s: the refused command carries no error", o.File)
			Expect(r.Error.Code).To(Equal("UNAVAILABLE"), "%s: a required-containment refusal is UNAVAILABLE", o.File)
			if r.Effects != nil {
				Expect(r.Effects.Writes).To(BeEmpty(), "%s: a command refused before spawn attests writes", o.File)
				Expect(r.Effects.StateVersion).To(BeEmpty(), "%s: a command refused before spawn attests a state change", o.File)
			}
		},
		// Catches sandbox-label-best-effort: the command runs, and
		// nothing calls it sandboxed.
		"best-effort-unlabelled.json": func(o *outcome) {
			c := o.containment()
			Expect(c.Mode).To(Equal(wire.ContainmentBestEffort), "%s: initialize reports containment mode %q; the harness asked for best_effort", o.File, c.Mode)
			unverified(o, c)
			Expect(o.answer("28-best-effort-run").OK).To(BeTrue(), "%s: best-effort execution must run the command", o.File)
		},
	})

	// The verified branch runs on the same machine as the others: the
	// premise comes from the host's own initialize, not from the machine.
	It("verified/contained", func() {
		got := c.Host().Initialized().Containment
		if got == nil || !got.Active || !got.Verified {
			notApplicable(fmt.Sprintf("the host's initialize reports no active verified containment backend (%s)", describeContainment(got)))
		}
		c.runScenario("28-required-containment/verified/contained.json", func(o *outcome) {
			got := o.containment()
			Expect(got.Active && got.Verified).To(BeTrue(), "%s: initialize under required containment reports %s; the probe session reported a verified backend", o.File, describeContainment(&got))
			Expect(got.FilesystemWrites).NotTo(Equal("uncontained"), "%s: a verified backend must contain filesystem writes", o.File)
		})
	})
})

// containment returns the containment the host reported in its first
// initialize answer of the run.
func (o *outcome) containment() wire.Containment {
	GinkgoHelper()
	answers := o.answers(wire.MethodInitialize)
	Expect(answers).NotTo(BeEmpty(), "%s: the host answered no initialize", o.File)
	var r wire.InitializeResult
	Expect(json.Unmarshal(answers[0], &r)).To(Succeed(), "%s: initialize answer: %s", o.File, answers[0])
	Expect(r.Containment).NotTo(BeNil(), "%s: initialize reports no containment status; a host that runs commands must report it apart from cwd validation", o.File)
	return *r.Containment
}

// unverified asserts a containment status of a session whose backends
// the harness forbade: nothing active or verified, writes and network
// uncontained.
func unverified(o *outcome, c wire.Containment) {
	GinkgoHelper()
	Expect(c.Active || c.Verified).To(BeFalse(), "%s: initialize reports %s although the harness forbade every backend; best-effort execution must not be labelled sandboxed", o.File, describeContainment(&c))
	Expect(c.FilesystemWrites).To(Equal("uncontained"), "%s: with no backend, filesystem writes are uncontained, not %q", o.File, c.FilesystemWrites)
	Expect(c.Network).To(Equal("uncontained"), "%s: with no backend, the network is uncontained, not %q", o.File, c.Network)
}

// describeContainment renders a containment status for a message.
func describeContainment(c *wire.Containment) string {
	if c == nil {
		return "no containment status"
	}
	return fmt.Sprintf("backend %s, state %s, active %t, verified %t, writes %s, network %s", c.Backend, c.State, c.Active, c.Verified, c.FilesystemWrites, c.Network)
}
