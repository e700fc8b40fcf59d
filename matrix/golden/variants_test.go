package golden_test

import (
	"testing"

	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/hosts/variants"
	"github.com/galaxy-stack/conform/matrix/golden"
	"github.com/galaxy-stack/conform/matrix/lab"
	"github.com/galaxy-stack/conform/matrix/replay"
)

// variantScenarios are the shipped scenarios every permitted variation of
// the reference host runs in TestVariantsShareTheReplayHash: those that
// reach each choice a variant takes (wording and member order in every
// result, a truncated stream and its spill files, project detection's
// depth and exclusions, the order of a mutation's checks). All 129 shipped
// scenarios on all variants agree too, but take minutes; this is the
// seconds-long subset.
var variantScenarios = []string{
	"fixtures/matrix/03-write-validate-diff/happy-path.json",
	"fixtures/matrix/06-nonzero-exit-truncation/huge-stdout.json",
	"fixtures/matrix/06-nonzero-exit-truncation/huge-stderr.json",
	"fixtures/matrix/27-incomplete-discovery/deep-tree.json",
	"fixtures/matrix/33-detection-exclusions/excluded-trees.json",
	"fixtures/matrix/32-invalid-utf8/latin1-file.json",
}

// TestVariantsShareTheReplayHash runs shipped scenarios on every permitted
// variation of the reference host: each is the reference host taking a
// choice the contract leaves to hosts the other way, so its replay hash
// must be the reference host's golden one (the transcript normalizes the
// host's choices, package replay).
func TestVariantsShareTheReplayHash(t *testing.T) {
	for _, name := range variants.Names() {
		argv, err := builtin.Argv("reference", "", name)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range variantScenarios {
			s := golden.Scenario{Path: p, Golden: golden.GoldenPath(p)}
			t.Run(name+"/"+p, func(t *testing.T) {
				t.Parallel()
				want, err := golden.Read(root, s)
				if err != nil {
					t.Fatal(err)
				}
				got := transcript(t, s, lab.Options{Argv: argv})
				if d := replay.Diverge(want, got); d != nil {
					t.Fatalf("variant %s: %v", name, d)
				}
				wh, _ := want.Hash()
				gh, _ := got.Hash()
				if wh != gh {
					t.Fatalf("variant %s: replay hash %s, the reference host's %s", name, gh, wh)
				}
			})
		}
	}
}
