package kit

import (
	"slices"

	. "github.com/onsi/ginkgo/v2"
)

// UncheckedEntry names the report entries in which a spec that ran
// records a check it could not make on the host under test, because the
// host declares absent what the check reads (its store, its trace): the
// scenario passes on what it checked, and the report says what it did not.
const UncheckedEntry = "unchecked"

// Unchecked records, for the item's report, a check of the current spec
// that does not apply to the host, with the reason; the spec goes on.
func Unchecked(reason string) {
	AddReportEntry(UncheckedEntry, reason)
}

// NotApplicablePrefix marks a skip that means "this item cannot apply to
// this host", which is reported as not_applicable rather than skipped.
const NotApplicablePrefix = "not_applicable: "

// NotApplicable ends the current spec as not applicable to the host under
// test, with a reason derived from the host's initialize answer.
func NotApplicable(reason string) {
	Skip(NotApplicablePrefix + reason)
}

// NeedTool ends the current spec as not applicable unless the host backs
// the canonical tool id: its initialize answer lists it.
func NeedTool(c *TestContext, id string) {
	GinkgoHelper()
	if !slices.Contains(c.Host().Initialized().Tools, id) {
		NotApplicable("the host does not back " + id + " (initialize did not list it)")
	}
}
