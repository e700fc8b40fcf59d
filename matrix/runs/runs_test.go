package runs

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/hosts/wire/hostproc"
	"github.com/galaxy-stack/conform/matrix"
	"github.com/galaxy-stack/conform/matrix/lab"
	"github.com/galaxy-stack/conform/matrix/runs/runstest"
	"github.com/galaxy-stack/conform/reports"
)

func TestMain(m *testing.M) {
	builtin.MaybeServeTest()
	os.Exit(m.Run())
}

func referenceConfig(t *testing.T) Config {
	t.Helper()
	t.Setenv(hostproc.CacheEnv, filepath.Join(t.TempDir(), "cache")) // created 0700 by the host: a cache it trusts
	argv, err := builtin.Command("reference")
	if err != nil {
		t.Fatal(err)
	}
	return Config{Host: "reference", Argv: argv}
}

// TestRunReturnsTheDocumentReportsAndTranscripts runs conform's own
// scenario and a stranger's copy of it where no containment backend is
// available: the first passes, the second's run_command never reaches the
// host, and the result carries one item, report and transcript each.
func TestRunReturnsTheDocumentReportsAndTranscripts(t *testing.T) {
	cfg := referenceConfig(t)
	same, other := runstest.Copies(t)
	cfg.Paths = []string{same, other}
	cfg.ForbidContainment = true
	var finished []*lab.Report
	cfg.Finished = func(r *lab.Report) { finished = append(finished, r) }
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	fr := res.Fixtures
	if fr == nil || fr.Passed != 1 || fr.Failed != 1 || len(fr.Reports) != 2 || len(finished) != 2 {
		t.Fatalf("Run = %+v (finished %d), want one pass and one failure", fr, len(finished))
	}
	if len(res.Transcripts) != 2 || fr.Reports[0].ReplayHash == "" {
		t.Errorf("Run gave %d transcripts, hash %q; want two, hashed", len(res.Transcripts), fr.Reports[0].ReplayHash)
	}
	d := res.Document
	if d.Kind != reports.KindRun || len(d.Items) != 2 || d.Items[0].Status != reports.Passed || d.Items[1].Status != reports.Failed {
		t.Fatalf("document = %+v, want a run document with a passed and a failed item", d)
	}
	if want := "conform run " + other + " --host reference"; d.Items[1].Repro != want {
		t.Errorf("repro = %q, want %q", d.Items[1].Repro, want)
	}
}

// interruption is a signal's cause, as conform's job gives it.
type interruption struct{}

func (interruption) Error() string { return "interrupted by SIGINT" }
func (interruption) Interruption() {}

var _ matrix.Interruption = interruption{}

func TestRunAfterAnInterruptionStartsNothing(t *testing.T) {
	cfg := referenceConfig(t)
	cfg.Paths = []string{checkoutSample, "../../fixtures/scenarios"}
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(interruption{})
	res, err := Run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !errors.Is(res.Stopped, interruption{}) || res.TimedOut != nil || !res.Fixtures.Interrupted || len(res.Fixtures.Reports) != 0 {
		t.Fatalf("Run = %+v, stopped %v; want interrupted with no report", res.Fixtures, res.Stopped)
	}
	if !res.Document.Interrupted || res.Fixtures.NotRun != len(res.Document.Items) {
		t.Errorf("document interrupted %v, %d items, %d not run", res.Document.Interrupted, len(res.Document.Items), res.Fixtures.NotRun)
	}
	for _, it := range res.Document.Items {
		if it.Status != reports.Skipped || it.Reason != reports.NotRunReason {
			t.Errorf("item %s: %s %q, want skipped as not run", it.Name, it.Status, it.Reason)
		}
	}
}

func TestRunRefusesAnUnclearSelection(t *testing.T) {
	cfg := referenceConfig(t)
	for _, c := range []struct {
		name string
		cfg  func(*Config)
	}{
		{"nothing", func(*Config) {}},
		{"campaign and paths", func(c *Config) { c.Campaign, c.Paths = "dir", []string{"a.json"} }},
		{"campaign and task", func(c *Config) { c.Campaign, c.Task = "dir", "x" }},
		{"task of two", func(c *Config) { c.Paths, c.Task = []string{checkoutSample, checkoutSample}, "x" }},
	} {
		cc := cfg
		c.cfg(&cc)
		_, err := Run(context.Background(), cc)
		var ie *lab.InvocationError
		if !errors.As(err, &ie) {
			t.Errorf("%s: Run = %v, want an invocation error", c.name, err)
		}
	}
}
