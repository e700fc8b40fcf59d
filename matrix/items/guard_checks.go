package items

import (
	"github.com/galaxy-stack/conform/matrix/kit"
	. "github.com/onsi/gomega"
)

// Checks shared by the validation evidence and no-progress guard items
// (4, 19 in tools.go; 21-24, 31 in runtime.go): rules of the
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
