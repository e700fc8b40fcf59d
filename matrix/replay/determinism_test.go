package replay_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/internal/suite"
	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/galaxy-stack/conform/matrix/lab"
	"github.com/galaxy-stack/conform/matrix/replay"
)

func TestMain(m *testing.M) { suite.Main(m, builtin.MaybeServeTest) }

// set is the scenario set of the determinism test: the item 14 scenarios
// and two original fixtures with checkpoints and compaction.
var set = []string{
	"../../fixtures/matrix/14-replay-hash",
	"../fixture/testdata/fixtures/write-and-validate.json",
	"../fixture/testdata/fixtures/scenarios/repeated-compaction-write.json",
}

// volatile are the report fields (JSON paths, "*" for any index) that
// legitimately differ between two isolated runs, and why; every other
// field of the report must be equal.
var volatile = map[string]string{
	"$.checkpointAudits.*.contentHash":                      "a checkpoint's content hash covers the absolute workspace root",
	"$.modelContextAudit.observedCheckpointHashes.*":        "the checkpoint hashes the model was shown, likewise",
	"$.modelRequests.*.checkpointHashes.*":                  "likewise",
	"$.observed.checkpoints.*.contentHash":                  "likewise",
	"$.observed.toolResults.*.content":                      "result text may quote the workspace root and time validations",
	"$.observed.toolResults.*.summary":                      "likewise",
	"$.observed.toolResults.*.effects.validations.*.detail": "command output with durations",
}

func TestTwoRunsInDifferentTempRoots(t *testing.T) {
	argv, err := builtin.Command("reference")
	if err != nil {
		t.Fatal(err)
	}
	var fxs []*fixture.Fixture
	for _, p := range set {
		l, err := fixture.Load(p)
		if err != nil {
			t.Fatal(err)
		}
		fxs = append(fxs, l...)
	}
	runAll := func(root string) []*lab.Report {
		t.Setenv("TMPDIR", root)
		var out []*lab.Report
		for _, fx := range fxs {
			rep, err := lab.Run(context.Background(), fx, lab.Options{Argv: argv}, false)
			if err != nil {
				t.Fatal(err)
			}
			if !rep.Passed {
				t.Fatalf("%s failed: %v", fx.File, rep.Failures)
			}
			out = append(out, rep)
		}
		return out
	}
	base := t.TempDir()
	a := runAll(mkdir(t, filepath.Join(base, "first")))
	b := runAll(mkdir(t, filepath.Join(base, "a second root", "with a longer name")))
	for i := range a {
		ta, tb := replay.Build(a[i]), replay.Build(b[i])
		if d := replay.Diverge(ta, tb); d != nil {
			t.Errorf("%s: %v", fxs[i].File, d)
		}
		ha, _ := ta.Hash()
		hb, _ := tb.Hash()
		if ha != hb {
			t.Errorf("%s: replay hashes %s and %s", fxs[i].File, ha, hb)
		}
		if diff := cmp.Diff(comparable(t, a[i]), comparable(t, b[i])); diff != "" {
			t.Errorf("%s: a comparable report field differs between the two roots (-first +second):\n%s", fxs[i].File, diff)
		}
	}
}

func mkdir(t *testing.T, p string) string {
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// comparable returns rep as JSON data with the volatile fields removed.
func comparable(t *testing.T, rep *lab.Report) any {
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return strip(v, "$")
}

func strip(v any, at string) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			p := at + "." + k
			if _, ok := volatile[p]; ok {
				delete(x, k)
				continue
			}
			x[k] = strip(e, p)
		}
	case []any:
		for i, e := range x {
			p := at + ".*"
			if _, ok := volatile[p]; ok {
				x[i] = nil
				continue
			}
			x[i] = strip(e, p)
		}
	}
	return v
}
