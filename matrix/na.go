package matrix

import . "github.com/onsi/ginkgo/v2"

// notApplicablePrefix marks a skip that means "this item cannot apply to
// this host", which is reported as not_applicable rather than skipped.
const notApplicablePrefix = "not_applicable: "

// notApplicable ends the current spec as not applicable to the host under
// test, with a reason derived from the host's initialize answer.
func notApplicable(reason string) {
	Skip(notApplicablePrefix + reason)
}
