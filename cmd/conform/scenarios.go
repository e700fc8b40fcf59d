package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/galaxy-stack/conform/fixtures"
	"github.com/galaxy-stack/conform/internal/atomicfile"
	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/galaxy-stack/conform/matrix/lab"
	"github.com/galaxy-stack/conform/matrix/replay"
	"github.com/galaxy-stack/conform/matrix/scenariofile"
)

// A runnable is one fixture to run: an original JSON fixture, or a txtar
// scenario (sc set) whose script runs it.
type runnable struct {
	fx *fixture.Fixture
	sc *scenariofile.Scenario
	// trusted is true for one of conform's own embedded scenarios (see
	// ownRunnable).
	trusted bool
}

// loadRunnables loads p: a .json fixture, a .txtar scenario, or a
// directory walked recursively for both (a symbolic link to a directory is
// not followed), in path order. Two fixtures with the same name are an
// error, as fixture.Load makes them.
func loadRunnables(p string) ([]runnable, error) {
	st, err := os.Stat(p)
	if err != nil || !st.IsDir() {
		own, ok, err := ownRunnable(p)
		if err != nil {
			return nil, err
		}
		if ok {
			return []runnable{own}, nil
		}
		if scenariofile.IsScenario(p) {
			sc, err := loadScenario(p)
			if err != nil {
				return nil, err
			}
			return []runnable{{fx: sc.Fixture, sc: sc}}, nil
		}
		fxs, err := loadFixtures(p)
		if err != nil {
			return nil, err
		}
		return wrap(fxs), nil
	}
	var files []string
	err = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() && (strings.HasSuffix(q, ".json") || scenariofile.IsScenario(q)) {
			files = append(files, q)
		}
		return nil
	})
	if err != nil {
		return nil, &fixture.Error{File: p, Msg: fmt.Sprintf("unable to read fixture directory: %v", err), Err: err}
	}
	sort.Slice(files, func(i, j int) bool { return filepath.ToSlash(files[i]) < filepath.ToSlash(files[j]) })
	if len(files) == 0 {
		return nil, &fixture.Error{File: p, Msg: "fixture directory contains no .json or .txtar files"}
	}
	var out []runnable
	byName := map[string]string{}
	for _, f := range files {
		rs, err := loadRunnables(f)
		if err != nil {
			return nil, err
		}
		for _, r := range rs {
			if prev, dup := byName[r.fx.Name]; dup {
				return nil, &fixture.Error{File: r.fx.File, Path: "$.name", Msg: fmt.Sprintf("duplicate fixture name '%s' (also in '%s')", r.fx.Name, prev)}
			}
			byName[r.fx.Name] = r.fx.File
		}
		out = append(out, rs...)
	}
	return out, nil
}

// loadScenario loads a scenario from disk or, for a path under
// fixtures/matrix/ or fixtures/scenarios/ that does not exist on disk,
// from the copy embedded in the binary.
func loadScenario(p string) (*scenariofile.Scenario, error) {
	sc, err := scenariofile.Load(p)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return sc, err
	}
	rel, ok := strings.CutPrefix(path.Clean(filepath.ToSlash(p)), fixtures.MatrixDir+"/")
	if !ok {
		return nil, err
	}
	data, rerr := fs.ReadFile(fixtures.Matrix(), rel)
	if rerr != nil {
		return nil, err
	}
	return scenariofile.Parse(p, data)
}

func wrap(fxs []*fixture.Fixture) []runnable {
	out := make([]runnable, len(fxs))
	for i, fx := range fxs {
		out[i] = runnable{fx: fx}
	}
	return out
}

// runOne runs r and fills in its replay hash. The commands of one of
// conform's own scenarios run whatever opts.Commands says.
func runOne(ctx context.Context, r runnable, opts lab.Options, keep bool) (*lab.Report, *replay.Transcript, error) {
	var rep *lab.Report
	var err error
	if r.trusted {
		opts.Commands = lab.TrustCommands
	}
	if r.sc != nil {
		rep, err = scenariofile.Run(ctx, r.sc, opts, keep)
	} else {
		rep, err = lab.Run(ctx, r.fx, opts, keep)
	}
	if err != nil || rep == nil {
		return rep, nil, err
	}
	t := replay.Build(rep)
	if rep.ReplayHash, err = t.Hash(); err != nil {
		return rep, nil, err
	}
	return rep, t, nil
}

// writeTranscripts writes the transcripts to file atomically: one
// transcript as an object, several as an array in run order.
func writeTranscripts(file string, ts []*replay.Transcript) error {
	var data []byte
	if len(ts) == 1 {
		b, err := ts[0].RedactedJSON()
		if err != nil {
			return err
		}
		data = b
	} else {
		parts := make([]json.RawMessage, 0, len(ts))
		for _, t := range ts {
			b, err := t.RedactedJSON()
			if err != nil {
				return err
			}
			parts = append(parts, b)
		}
		b, err := json.MarshalIndent(parts, "", "  ")
		if err != nil {
			return err
		}
		data = append(b, '\n')
	}
	return writeFileAtomic(file, data)
}

// writeFileAtomic replaces file with data through a temporary file in the
// same directory (internal/atomicfile); a path that is not a regular file
// is refused.
func writeFileAtomic(file string, data []byte) error {
	return atomicfile.WriteFile(file, data, 0o644)
}

// hashStages fills in the replay hash of every stage report of a campaign.
func hashStages(rep *lab.CampaignReport) {
	for _, st := range rep.Stages {
		if st.Report != nil {
			st.Report.ReplayHash, _ = replay.Build(st.Report).Hash()
		}
	}
}
