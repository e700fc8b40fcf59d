package kit

import (
	"strings"
	"testing"

	"github.com/galaxy-stack/conform/matrix/lab"
	"github.com/galaxy-stack/conform/matrix/oracle"
)

// TestFailedScenarioShowsValues checks that a failed scenario's reason,
// which certify and every report show, gives each failed expectation's
// expected and actual value, also where its message names neither.
func TestFailedScenarioShowsValues(t *testing.T) {
	rep := &lab.Report{Status: "completed", Failures: []oracle.Failure{
		{Assertion: "expected.toolResults[2].ok", Expected: "false", Actual: "true", Message: "Tool result 3 ok mismatch."},
		{Assertion: "expected.toolResults[6].errorCode", Expected: "NOT_FOUND", Actual: "null", Message: "Tool result 7 error code mismatch."},
	}}
	got := describeFailures("fixtures/matrix/x/y.json", rep)
	for _, want := range []string{
		"\n  expected.toolResults[2].ok: Tool result 3 ok mismatch: expected false, got true.",
		"\n  expected.toolResults[6].errorCode: Tool result 7 error code mismatch: expected NOT_FOUND, got null.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the reason lacks %q:\n%s", want, got)
		}
	}
}
