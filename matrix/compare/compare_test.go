package compare_test

import (
	"context"
	"slices"
	"testing"

	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/internal/suite"
	"github.com/galaxy-stack/conform/matrix/compare"
	"github.com/galaxy-stack/conform/matrix/lab"
	"github.com/galaxy-stack/conform/matrix/replay"
	"github.com/galaxy-stack/conform/reports"
)

func TestMain(m *testing.M) { suite.Main(m, builtin.MaybeServeTest) }

func host(t *testing.T, name, mutant, variant string) compare.Host {
	t.Helper()
	argv, err := builtin.Argv(name, mutant, variant)
	if err != nil {
		t.Fatal(err)
	}
	label := name
	switch {
	case mutant != "":
		label += " --mutant " + mutant
	case variant != "":
		label += " --variant " + variant
	}
	return compare.Host{Name: label, Host: name, Mutant: mutant, Argv: argv}
}

const (
	createOver = "../../fixtures/matrix/02-preconditioned-write/create-over-existing.json"
	latin1     = "../../fixtures/matrix/32-invalid-utf8/latin1-file.json"
)

func run(t *testing.T, paths []string, hosts ...compare.Host) *compare.Result {
	t.Helper()
	res, err := compare.Run(context.Background(), compare.Config{Hosts: hosts, Paths: paths})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Scenarios) != len(paths) {
		t.Fatalf("%d scenarios compared, want %d", len(res.Scenarios), len(paths))
	}
	return res
}

// TestVariantsAgree: a permitted variation of the reference host has the
// reference host's replay hash (here: the check order of a mutation, and
// the member order of every result).
func TestVariantsAgree(t *testing.T) {
	t.Parallel()
	res := run(t, []string{latin1}, host(t, "reference", "", ""),
		host(t, "reference", "", "precondition-first"), host(t, "reference", "", "reversed-members"))
	s := res.Scenarios[0]
	if !s.Equal || res.Mismatches != 0 || s.Hashes[0] == "" || s.Compared != 3 {
		t.Fatalf("the variants differ from the reference host: %+v", s)
	}
}

// TestMutantsDiverge: the reference host against three mutants whose
// transcripts differ from its own shows the first divergent event of each,
// with the field and the contract sentence that governs it.
func TestMutantsDiverge(t *testing.T) {
	for _, c := range []struct {
		mutant, scenario, kind, field string
	}{
		{"overwrite-existing", createOver, "tool_result", "Kind"},
		{"lossy-utf8", latin1, "tool_result", "Result.OK"},
		{"wrong-canonical-id", createOver, "tool_result", "Kind"},
	} {
		t.Run(c.mutant, func(t *testing.T) {
			t.Parallel()
			res := run(t, []string{c.scenario}, host(t, "reference", "", ""), host(t, "reference", c.mutant, ""))
			s := res.Scenarios[0]
			if s.Equal || res.Mismatches != 1 || len(s.Mismatches) != 1 || len(s.Differ) == 0 {
				t.Fatalf("no mismatch: %+v", s)
			}
			m := s.Mismatches[0]
			t.Logf("%s: %s, field %s, aspects %v\n%s", c.mutant, m.Where, m.Field, s.Differ, m.Diff)
			if m.Kind != c.kind || m.Field != c.field {
				t.Errorf("first divergence %s field %q, want kind %s field %s", m.Where, m.Field, c.kind, c.field)
			}
			if c.field == "Kind" && m.ResultEvent == 0 {
				t.Errorf("events of different kinds, and no first divergent result named: %+v", m)
			}
			if m.Contract == "" || m.Contract == compare.HostsChoice || m.Diff == "" || string(m.Values[0]) == string(m.Values[1]) {
				t.Errorf("mismatch without its contract sentence, diff or values: %+v", m)
			}
			if m.Hosts != [2]string{"reference", "reference --mutant " + c.mutant} {
				t.Errorf("hosts %v", m.Hosts)
			}
		})
	}
}

// TestOutlier: with three hosts the one outside the majority is named.
func TestOutlier(t *testing.T) {
	t.Parallel()
	res := run(t, []string{createOver}, host(t, "reference", "", ""),
		host(t, "reference", "overwrite-existing", ""), host(t, "reference", "", "reworded"))
	s := res.Scenarios[0]
	if want := []string{"reference --mutant overwrite-existing"}; !slices.Equal(s.Outliers, want) || s.NoMajority {
		t.Fatalf("outliers %v (no majority %v), want %v", s.Outliers, s.NoMajority, want)
	}
	if len(s.Mismatches) != 1 || s.Mismatches[0].Hosts[0] != "reference" {
		t.Fatalf("mismatches %+v, want one against the reference host", s.Mismatches)
	}
}

// TestProfiles: hosts of different tool profiles are compared on the tools
// both offer, and the result says which tools were left out.
func TestProfiles(t *testing.T) {
	tr := func(names ...string) *replay.Transcript {
		return &replay.Transcript{Version: replay.Version, Fixture: "f", RunID: "r", Events: []replay.Event{
			{Kind: "model_request", Request: &replay.Request{Outcome: "round", ToolNames: names}},
			{Kind: "checkpoint", Checkpoint: &lab.Audit{Reason: "pause", ActiveToolNames: names}},
		}, Final: replay.Final{Status: "completed", Checkpoints: []lab.Audit{{Reason: "pause", ActiveToolNames: names}}}}
	}
	res, err := compare.Transcripts([]string{"a", "b"}, []string{"f.json"},
		[][]*replay.Transcript{{tr("read_file", "write_file")}, {tr("read_file", "fetch_url", "write_file")}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Profile == nil || !slices.Equal(res.Profile.Extra["b"], []string{"fetch_url"}) || len(res.Profile.Extra["a"]) != 0 {
		t.Fatalf("profile %+v", res.Profile)
	}
	if !res.Scenarios[0].Equal {
		t.Fatalf("restricted to the common tools the transcripts should agree: %+v", res.Scenarios[0])
	}
	// A scenario that applies to one host only is not compared.
	na := tr("read_file")
	na.Final.NotApplicable = true
	res, err = compare.Transcripts([]string{"a", "b"}, []string{"f.json"}, [][]*replay.Transcript{{na}, {tr("read_file")}})
	if err != nil || res.NotCompared != 1 || res.Mismatches != 0 || res.Scenarios[0].Compared != 1 {
		t.Fatalf("one applicable host: %+v, %v", res, err)
	}
	// Without the extra tool the second host offers one tool less: that is
	// a difference, in the model requests.
	res, err = compare.Transcripts([]string{"a", "b"}, []string{"f.json"},
		[][]*replay.Transcript{{tr("read_file", "write_file")}, {tr("read_file", "write_file")}})
	if err != nil || !res.Scenarios[0].Equal || res.Profile != nil {
		t.Fatalf("equal profiles: %+v, %v", res, err)
	}
}

// TestDocuments compares the replay hashes of result documents by scenario
// file; a scenario whose content is machine-specific on purpose is not a
// mismatch.
func TestDocuments(t *testing.T) {
	doc := func(hashes ...string) *reports.Document {
		d := &reports.Document{}
		for i, h := range hashes {
			file := []string{"a.json", "fixtures/matrix/32-invalid-utf8/latin1-file.json", "c.json"}[i]
			d.Items = append(d.Items, reports.Item{Name: file, File: file, Status: reports.Passed, ReplayHash: h})
		}
		return d
	}
	res, err := compare.Documents([]string{"x", "y", "z"}, []*reports.Document{doc("h1", "v1", "c1"), doc("h1", "v2", "c2"), doc("h1", "v3", "c1")})
	if err != nil {
		t.Fatal(err)
	}
	a, v, c := res.Scenarios[0], res.Scenarios[1], res.Scenarios[2]
	if !a.Equal || v.Equal || len(v.Volatile) == 0 || c.Equal || !slices.Equal(c.Outliers, []string{"y"}) || res.Mismatches != 1 {
		t.Fatalf("comparison %+v", res)
	}
	if res.Note != compare.DocumentsNote {
		t.Errorf("note %q", res.Note)
	}
}
