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

// Checks shared by the guard, finalization and newest-status items (18 in
// prompt.go, 46-48 in runtime.go, 51 in tools.go).

// notDispatched asserts that no tool/execute the host received carries
// one of callIDs: the core answered them itself.
func notDispatched(o *kit.Outcome, callIDs ...string) {
	for _, c := range o.Executes() {
		Expect(callIDs).NotTo(ContainElement(c.CallID), "%s: %s reached the host; the core must answer it without dispatch", o.File, c.CallID)
	}
}

// blockedBeforeDispatch asserts that none of callIDs reached the host and
// that the core answered exactly that many calls NO_PROGRESS: a
// no-progress guard refused them before dispatch.
func blockedBeforeDispatch(o *kit.Outcome, callIDs ...string) {
	notDispatched(o, callIDs...)
	n := 0
	for _, r := range o.Observed.ToolResults {
		if r.ErrorCode != nil && *r.ErrorCode == "NO_PROGRESS" {
			n++
		}
	}
	Expect(n).To(Equal(len(callIDs)), "%s: the core answered %d calls NO_PROGRESS; the guard must block exactly %v before dispatch", o.File, n, callIDs)
}

// toolFreeRequests asserts which model requests (1-based) offered no tools:
// exactly want, the finalization turns.
func toolFreeRequests(o *kit.Outcome, want ...int) {
	got := []int{}
	for _, r := range o.ModelRequests {
		if r.ToolFree {
			got = append(got, r.Request)
		}
	}
	if want == nil {
		want = []int{}
	}
	Expect(got).To(Equal(want), "%s: model requests %v of %d offered no tools; exactly the finalization turns %v must be tool-free, every other request keeps its tools", o.File, got, len(o.ModelRequests), want)
}

// attestedInOrder asserts that the calls attested appValidation with the
// statuses, call by call (calls and statuses pair up).
func attestedInOrder(o *kit.Outcome, calls, statuses []string) {
	for i, id := range calls {
		attested(o, id, statuses[i])
	}
}
