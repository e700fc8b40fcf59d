package kit

import (
	"encoding/json"
	"fmt"

	"github.com/galaxy-stack/conform/hosts/wire"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Containment returns the containment the host reported in its first
// initialize answer of the run.
func (o *Outcome) Containment() wire.Containment {
	GinkgoHelper()
	answers := o.Answers(wire.MethodInitialize)
	Expect(answers).NotTo(BeEmpty(), "%s: the host answered no initialize", o.File)
	var r wire.InitializeResult
	Expect(json.Unmarshal(answers[0], &r)).To(Succeed(), "%s: initialize answer: %s", o.File, answers[0])
	Expect(r.Containment).NotTo(BeNil(), "%s: initialize reports no containment status; a host that runs commands must report it apart from cwd validation", o.File)
	return *r.Containment
}

// Unverified asserts a containment status of a session whose backends
// the harness forbade: nothing active or verified, writes and network
// uncontained.
func Unverified(o *Outcome, c wire.Containment) {
	GinkgoHelper()
	Expect(c.Active || c.Verified).To(BeFalse(), "%s: initialize reports %s although the harness forbade every backend; best-effort execution must not be labelled sandboxed", o.File, DescribeContainment(&c))
	Expect(c.FilesystemWrites).To(Equal("uncontained"), "%s: with no backend, filesystem writes are uncontained, not %q", o.File, c.FilesystemWrites)
	Expect(c.Network).To(Equal("uncontained"), "%s: with no backend, the network is uncontained, not %q", o.File, c.Network)
}

// DescribeContainment renders a containment status for a message.
func DescribeContainment(c *wire.Containment) string {
	if c == nil {
		return "no containment status"
	}
	return fmt.Sprintf("backend %s, state %s, active %t, verified %t, writes %s, network %s", c.Backend, c.State, c.Active, c.Verified, c.FilesystemWrites, c.Network)
}
