package matrix

import (
	"strings"

	"github.com/galaxy-stack/conform/matrix/kit"
	"github.com/galaxy-stack/conform/reports"
	"github.com/onsi/ginkgo/v2/types"
)

// failedCheck describes the failed spec r: its name, the sentences it
// enforces and what failed it.
func failedCheck(r types.SpecReport) reports.FailedCheck {
	sentences := kit.SentencesOf(r.Labels())
	if sentences == nil {
		sentences = []string{}
	}
	return reports.FailedCheck{Check: r.LeafNodeText, Sentences: sentences, Cause: causeOf(r)}
}

// causeOf says what failed r: the cause its spec recorded (kit.FailedBy),
// else the item's bound, else what its message shows of a host that broke
// (a Go spec talking to the host itself meets that as an error), else one
// of its assertions.
func causeOf(r types.SpecReport) string {
	for _, e := range r.ReportEntries {
		if e.Name == kit.CauseEntry {
			return e.StringRepresentation()
		}
	}
	// A spec that ran into its item's bound failed on that bound, whatever
	// error it then met; a spec's own bounded waits are its assertions.
	if r.State.Is(types.SpecStateTimedout) || r.RunTime >= itemTimeout() {
		return reports.CauseDeadline
	}
	msg := r.Failure.Message
	switch {
	case r.Failure.ForwardedPanic != "":
		return reports.CauseHarness
	case strings.Contains(msg, "host broke the protocol") && strings.Contains(msg, ": at /"):
		return reports.CauseSchema
	case strings.Contains(msg, "host broke the protocol"), strings.Contains(msg, "exited without answering"):
		return reports.CauseHost
	}
	return reports.CauseAssertion
}
