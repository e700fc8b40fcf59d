package resume_test

import (
	"context"
	"testing"

	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/internal/suite"
	"github.com/galaxy-stack/conform/matrix/resume"
)

func TestMain(m *testing.M) { suite.Main(m, builtin.MaybeServeTest) }

// TestWriteAndValidate: the seed fixture write-and-validate resumes from
// every step on the reference host to the uninterrupted run's outcome, and
// no call runs twice.
func TestWriteAndValidate(t *testing.T) {
	argv, err := builtin.Command("reference")
	if err != nil {
		t.Fatal(err)
	}
	res, err := resume.Run(context.Background(), resume.Config{Path: "../fixture/testdata/fixtures/write-and-validate.json", Argv: argv, AllowUncontained: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range res.Steps {
		t.Logf("%s #%d paused=%v passed=%v status=%s twice=%v\n%s", s.Event, s.Occurrence, s.Paused, s.Passed, s.Status, s.RanTwice, s.Diff)
	}
	if len(res.Steps) == 0 || res.Failed != 0 || res.Passed < 5 || res.NotResumable == 0 {
		t.Fatalf("%d steps: %d passed, %d failed, %d not paused, %d not resumable", len(res.Steps), res.Passed, res.Failed, res.NotPaused, res.NotResumable)
	}
}

// TestStoreMutant: a host whose store/put acknowledges without writing
// cannot resume from any step.
func TestStoreMutant(t *testing.T) {
	argv, err := builtin.Argv("reference", "store-ack-without-persist", "")
	if err != nil {
		t.Fatal(err)
	}
	res, err := resume.Run(context.Background(), resume.Config{Path: "../fixture/testdata/fixtures/write-and-validate.json", Argv: argv, AllowUncontained: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Failed == 0 || res.Passed != 0 {
		t.Fatalf("%d steps: %d passed, %d failed; the mutant should fail every resumable step", len(res.Steps), res.Passed, res.Failed)
	}
}
