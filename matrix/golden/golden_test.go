package golden_test

import (
	"context"
	"errors"
	"flag"
	"io/fs"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/internal/suite"
	"github.com/galaxy-stack/conform/matrix/golden"
	"github.com/galaxy-stack/conform/matrix/lab"
	"github.com/galaxy-stack/conform/matrix/replay"
)

var update = flag.Bool("update", false, "rewrite the golden transcripts from the reference host's runs")

// root is the repository root, seen from this package.
const root = "../.."

func TestMain(m *testing.M) { suite.Main(m, builtin.MaybeServeTest) }

func referenceOpts(t *testing.T) lab.Options {
	argv, err := builtin.Command("reference")
	if err != nil {
		t.Fatal(err)
	}
	return lab.Options{Argv: argv}
}

// sem bounds the scenario runs in flight.
var sem = make(chan struct{}, 4)

func transcript(t *testing.T, s golden.Scenario, opts lab.Options) *replay.Transcript {
	t.Helper()
	sem <- struct{}{}
	defer func() { <-sem }()
	tr, err := golden.Transcript(context.Background(), root, s, opts)
	if err != nil {
		t.Fatalf("%s: %v", s.Path, err)
	}
	return tr
}

const hint = "run `conform golden update` (or `go test ./matrix/golden -update`) and review the diff"

// TestGolden runs every shipped scenario twice in isolated temporary
// directories and checks both transcripts against its golden file.
func TestGolden(t *testing.T) {
	opts := referenceOpts(t)
	if *update {
		written, removed, err := golden.Update(context.Background(), root, opts, cap(sem))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %d golden transcripts, removed %d", len(written), len(removed))
		return
	}
	scs, err := golden.Scenarios(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(scs) == 0 {
		t.Fatal("no shipped scenarios found under fixtures/")
	}
	t.Run("no stale golden file", func(t *testing.T) {
		want := map[string]bool{}
		for _, s := range scs {
			want[s.Golden] = true
		}
		gs, err := golden.Goldens(root)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range gs {
			if !want[g] {
				t.Errorf("%s has no scenario any more: %s", g, hint)
			}
		}
	})
	for _, s := range scs {
		t.Run(strings.TrimPrefix(s.Path, "fixtures/"), func(t *testing.T) {
			t.Parallel()
			want, err := golden.Read(root, s)
			if errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("%s has no golden transcript (%s): %s", s.Path, s.Golden, hint)
			}
			if err != nil {
				t.Fatalf("%s: %v: %s", s.Golden, err, hint)
			}
			var wg sync.WaitGroup
			// Two runs, each in its own temporary directory (with -short,
			// one): they must agree with each other and with the golden file.
			n := 2
			if testing.Short() {
				n = 1
			}
			runs := make([]*replay.Transcript, n)
			for i := range runs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					runs[i] = transcript(t, s, opts)
				}()
			}
			wg.Wait()
			for _, r := range runs {
				if r == nil {
					return
				}
			}
			if n == 2 {
				if d := replay.Diverge(runs[0], runs[1]); d != nil {
					t.Fatalf("%s: two isolated runs differ: %v", s.Path, d)
				}
			}
			if d := replay.Diverge(want, runs[0]); d != nil {
				t.Fatalf("%s: the run differs from %s (- golden, + run): %v\n%s", s.Path, s.Golden, d, hint)
			}
			wh, _ := want.Hash()
			rh, _ := runs[0].Hash()
			if wh != rh {
				t.Fatalf("%s: replay hash %s, golden %s: %s", s.Path, rh, wh, hint)
			}
		})
	}
}

// TestExclusionsExist keeps the masked and the unreplayable lists naming
// scenarios that are shipped.
func TestExclusionsExist(t *testing.T) {
	for p := range golden.Unreplayable {
		if _, err := os.Stat(root + "/" + p); err != nil {
			t.Errorf("golden.Unreplayable names %s, which is not shipped: %v", p, err)
		}
	}
	for p := range golden.Volatile {
		if _, err := os.Stat(root + "/" + p); err != nil {
			t.Errorf("golden.Volatile names %s, which is not shipped: %v", p, err)
		}
	}
}
