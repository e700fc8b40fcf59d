package repeat_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/hosts/hosttest"
	"github.com/galaxy-stack/conform/matrix/repeat"
	"github.com/galaxy-stack/conform/matrix/runs"
)

func TestMain(m *testing.M) {
	if len(os.Args) == 2 && os.Args[1] == "timestamped-host" {
		hosttest.ServeTimestamped()
	}
	builtin.MaybeServeTest()
	os.Exit(m.Run())
}

const (
	inspect = "../../fixtures/matrix/01-read-only-inspect/inspect.json"
	write   = "../../fixtures/matrix/03-write-validate-diff/happy-path.json"
)

// TestDeterministic: shipped scenarios on the reference host are
// deterministic across perturbed surroundings.
func TestDeterministic(t *testing.T) {
	argv, err := builtin.Command("reference")
	if err != nil {
		t.Fatal(err)
	}
	res, err := repeat.Run(context.Background(), repeat.Config{Times: 3,
		Run: runs.Config{Host: "reference", Argv: argv, Paths: []string{inspect, write}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Scenarios) != 2 || res.Deterministic != 2 || len(res.Surroundings) != 3 {
		t.Fatalf("result %+v", res)
	}
	if s := res.Surroundings; s[0].TZ == s[1].TZ || s[0].Order == s[1].Order || s[0].TempDir == s[1].TempDir {
		t.Errorf("the repetitions' surroundings are not perturbed: %+v", s)
	}
}

// TestTimestamped: a host that writes the time into a file is
// nondeterministic, and the divergence is the write evidence of the
// write_file result.
func TestTimestamped(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	res, err := repeat.Run(context.Background(), repeat.Config{Times: 2,
		Run: runs.Config{Host: "timestamped", Argv: []string{exe, "timestamped-host"}, Paths: []string{write}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Scenarios) != 1 {
		t.Fatalf("result %+v", res)
	}
	s := res.Scenarios[0]
	if s.Verdict != repeat.Nondeterministic || s.Divergence == nil {
		t.Fatalf("verdict %s (statuses %v, passed %v), want nondeterministic", s.Verdict, s.Statuses, s.Passed)
	}
	if !strings.Contains(s.Divergence.Where, "tool_result") || !strings.Contains(s.Divergence.Diff, "AfterHash") {
		t.Errorf("divergence %s:\n%s", s.Divergence.Where, s.Divergence.Diff)
	}
}
