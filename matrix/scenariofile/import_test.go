package scenariofile_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/internal/suite"
	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/galaxy-stack/conform/matrix/lab"
	"github.com/galaxy-stack/conform/matrix/replay"
	"github.com/galaxy-stack/conform/matrix/scenariofile"
)

func TestMain(m *testing.M) { suite.Main(m, builtin.MaybeServeTest) }

// seedDir holds the original fixtures, as the fixture package keeps them
// (a copy of ../shared/seed-fixtures/fixtures).
const seedDir = "../fixture/testdata/fixtures"

// limit bounds the fixture runs in flight: two per seed (JSON and txtar).
var limit = make(chan struct{}, 4)

func reference(t *testing.T) []string {
	argv, err := builtin.Command("reference")
	if err != nil {
		t.Fatal(err)
	}
	return argv
}

// TestImportEverySeed imports every original fixture, runs the JSON and
// the txtar form against the reference host and compares outcome and
// replay hash.
func TestImportEverySeed(t *testing.T) {
	fxs, err := fixture.Load(seedDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(fxs) < 15 {
		t.Fatalf("expected the 15 original fixtures, found %d", len(fxs))
	}
	argv := reference(t)
	out := t.TempDir()
	for _, fx := range fxs {
		t.Run(filepath.Base(fx.File), func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(fx.File)
			if err != nil {
				t.Fatal(err)
			}
			ar, err := scenariofile.Import(fx.File, data)
			if err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(out, strings.TrimSuffix(filepath.Base(fx.File), ".json")+scenariofile.Ext)
			if err := os.WriteFile(p, ar, 0o644); err != nil {
				t.Fatal(err)
			}
			sc, err := scenariofile.Load(p)
			if err != nil {
				t.Fatalf("the imported scenario does not load: %v\n%s", err, ar)
			}
			opts := lab.Options{Argv: argv, ForbidContainment: fx.Settings().CommandContainment == wire.ContainmentRequired}
			limit <- struct{}{}
			jrep, err := lab.Run(context.Background(), fx, opts, false)
			<-limit
			if err != nil {
				t.Fatal(err)
			}
			limit <- struct{}{}
			srep, err := scenariofile.Run(context.Background(), sc, opts, false)
			<-limit
			if err != nil {
				t.Fatal(err)
			}
			jt := replay.Build(jrep)
			jh, _ := jt.Hash()
			if !jrep.Passed || !srep.Passed {
				t.Fatalf("json passed %v (%v), txtar passed %v (%v)", jrep.Passed, jrep.Failures, srep.Passed, srep.Failures)
			}
			if jrep.Status != srep.Status || jh != srep.ReplayHash {
				d := replay.Diverge(jt, replay.Build(srep))
				t.Fatalf("json: %s %s; txtar: %s %s; %v", jrep.Status, jh, srep.Status, srep.ReplayHash, d)
			}
		})
	}
}

// TestImportCampaignStages imports every stage of the original campaign
// and runs the imported stages as a campaign: each stage gives the same
// outcome and replay hash as the JSON stage.
func TestImportCampaignStages(t *testing.T) {
	const dir = "../fixture/testdata/campaigns/progressive-project"
	orig, err := fixture.LoadCampaign(dir)
	if err != nil {
		t.Fatal(err)
	}
	imported := &fixture.Campaign{Path: t.TempDir()}
	for _, st := range orig.Stages {
		data, err := os.ReadFile(st.File)
		if err != nil {
			t.Fatal(err)
		}
		ar, err := scenariofile.Import(st.File, data)
		if err != nil {
			t.Fatal(err)
		}
		sc, err := scenariofile.Parse(filepath.Join(imported.Path, filepath.Base(st.File)+scenariofile.Ext), ar)
		if err != nil {
			t.Fatalf("%s: %v", st.File, err)
		}
		imported.Stages = append(imported.Stages, sc.Fixture)
	}
	opts := lab.Options{Argv: reference(t)}
	a, err := lab.RunCampaign(context.Background(), orig, opts, false)
	if err != nil {
		t.Fatal(err)
	}
	b, err := lab.RunCampaign(context.Background(), imported, opts, false)
	if err != nil {
		t.Fatal(err)
	}
	if !a.Passed || !b.Passed || len(a.Stages) != len(b.Stages) || len(a.Stages) != len(orig.Stages) {
		t.Fatalf("json campaign passed %v (%v), imported %v (%v)", a.Passed, a.Failures, b.Passed, b.Failures)
	}
	for i := range a.Stages {
		ta, tb := replay.Build(a.Stages[i].Report), replay.Build(b.Stages[i].Report)
		if d := replay.Diverge(ta, tb); d != nil {
			t.Errorf("%s: %v", a.Stages[i].Stage, d)
		}
	}
}
