package kit

import . "github.com/onsi/ginkgo/v2"

// NotApplicablePrefix marks a skip that means "this item cannot apply to
// this host", which is reported as not_applicable rather than skipped.
const NotApplicablePrefix = "not_applicable: "

// NotApplicable ends the current spec as not applicable to the host under
// test, with a reason derived from the host's initialize answer.
func NotApplicable(reason string) {
	Skip(NotApplicablePrefix + reason)
}
