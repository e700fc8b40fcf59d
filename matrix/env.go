package matrix

import (
	"context"
	"fmt"
	"time"

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

// sessionTimeout bounds one session.
const sessionTimeout = 2 * time.Minute

// runSession runs sc against the host under test and fails the spec, with
// the host's own words, if the host could not be started or broke the
// protocol.
func runSession(sc session.Scenario) *session.Outcome {
	GinkgoHelper()
	Expect(current).NotTo(BeNil(), "no host under test: call matrix.Run or matrix.UseHost first")
	ctx, cancel := context.WithTimeout(context.Background(), sessionTimeout)
	defer cancel()
	out, err := session.Run(ctx, current.argv, sc)
	if out != nil && out.Host.Host.Name != "" {
		current.sawHost(out.Host)
	}
	if err != nil {
		Fail(fmt.Sprintf("session %q: %v", sc.Name, err))
	}
	if out.HostError != nil {
		Fail(fmt.Sprintf("session %q: %v", sc.Name, out.HostError))
	}
	return out
}
