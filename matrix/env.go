package matrix

import (
	"context"
	"fmt"

	"github.com/galaxy-stack/conform/matrix/session"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// notApplicablePrefix marks a skip that means "this item cannot apply to
// this host", which is reported as not_applicable rather than skipped.
const notApplicablePrefix = "not_applicable: "

// notApplicable ends the current spec as not applicable to the host under
// test, with a reason.
func notApplicable(reason string) {
	Skip(notApplicablePrefix + reason)
}

// runSession runs sc against the host under test and fails the spec, with
// the host's own words, if the host could not be started or broke the
// protocol, or with the bound that ended it (see [DefaultItemTimeout]).
func runSession(sc session.Scenario) *session.Outcome {
	GinkgoHelper()
	Expect(current).NotTo(BeNil(), "no host under test: call matrix.Run or matrix.UseHost first")
	ctx := itemContext()
	out, err := session.Run(ctx, current.argv, sc)
	if out != nil && out.Host.Host.Name != "" {
		current.sawHost(out.Host)
	}
	if cause := context.Cause(ctx); cause != nil {
		Fail(fmt.Sprintf("session %q: %v", sc.Name, cause))
	}
	if err != nil {
		Fail(fmt.Sprintf("session %q: %v", sc.Name, err))
	}
	if out.HostError != nil {
		Fail(fmt.Sprintf("session %q: %v", sc.Name, out.HostError))
	}
	return out
}
