package matrix

import (
	"testing"
	"time"

	"github.com/galaxy-stack/conform/matrix/kit"
	"github.com/galaxy-stack/conform/reports"
	"github.com/onsi/ginkgo/v2/types"
)

// TestCauseOfAFailedSpec checks what a failed spec is said to have failed
// on: its recorded cause first, then the item's bound, then a host that
// broke as its message shows, else its own assertion — a check's own
// bounded wait included.
func TestCauseOfAFailedSpec(t *testing.T) {
	failed := func(msg string, entries ...types.ReportEntry) types.SpecReport {
		return types.SpecReport{State: types.SpecStateFailed, Failure: types.Failure{Message: msg}, ReportEntries: entries, RunTime: time.Second}
	}
	entry := func(cause string) types.ReportEntry {
		return types.ReportEntry{Name: kit.CauseEntry, Value: types.WrapEntryValue(cause)}
	}
	for _, tc := range []struct {
		r    types.SpecReport
		want string
	}{
		{failed("scenario x: status failed", entry(reports.CauseHost)), reports.CauseHost},
		{failed("a page of 2 entries: expected 2, got 4"), reports.CauseAssertion},
		{failed("fetch_url was not answered within the call's 1s timeout and 3 s of grace: context deadline exceeded"), reports.CauseAssertion},
		{failed(`host broke the protocol answering "tool/execute": at /result/ok: expected boolean`), reports.CauseSchema},
		{failed(`host broke the protocol answering "tool/execute": invalid character 't'`), reports.CauseHost},
		{failed("the host exited without answering (exit status 3)"), reports.CauseHost},
		{types.SpecReport{State: types.SpecStateFailed, RunTime: itemTimeout()}, reports.CauseDeadline},
	} {
		if got := causeOf(tc.r); got != tc.want {
			t.Errorf("cause of %q = %s, want %s", tc.r.Failure.Message, got, tc.want)
		}
	}
}
