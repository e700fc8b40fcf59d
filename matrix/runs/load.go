package runs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/galaxy-stack/conform/fixtures"
	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/galaxy-stack/conform/matrix/lab"
	"github.com/galaxy-stack/conform/matrix/replay"
	"github.com/galaxy-stack/conform/matrix/scenariofile"
)

// A Runnable is one fixture to run: an original JSON fixture, or a txtar
// scenario (Scenario set) whose script runs it.
type Runnable struct {
	// Fixture is the fixture; for a scenario, its Fixture.
	Fixture *fixture.Fixture
	// Scenario is the txtar scenario, nil for a JSON fixture.
	Scenario *scenariofile.Scenario
	// Trusted is true for one of conform's own embedded scenarios: its
	// commands reach the host whatever containment the host reports.
	Trusted bool
}

// Load loads p: a .json fixture, a .txtar scenario, or a directory walked
// recursively for both (a symbolic link to a directory is not followed),
// in path order. Two fixtures with the same name are an error, as
// fixture.Load makes them. A file whose bytes are one of conform's
// embedded scenarios, or a path under fixtures/matrix/ that does not exist
// on disk and names one, loads the embedded copy, trusted. A load error
// naming the fixture is a *fixture.Error.
func Load(p string) ([]Runnable, error) {
	if lst, err := os.Lstat(p); err == nil && lst.Mode()&fs.ModeSymlink != 0 {
		// A stranger's scenario folder may hold a link to a secret file, and
		// a parse error quotes the line it stops at: no fixture is read
		// through a link (a directory walk skips them too).
		target, _ := os.Readlink(p)
		return nil, &fixture.Error{File: p, Msg: fmt.Sprintf("is a symbolic link to %q, and conform reads no fixture through a link: name the file itself", target)}
	}
	st, err := os.Stat(p)
	if err != nil || !st.IsDir() {
		own, ok, err := ownRunnable(p)
		if err != nil {
			return nil, err
		}
		if ok {
			return []Runnable{own}, nil
		}
		if scenariofile.IsScenario(p) {
			sc, err := loadScenario(p)
			if err != nil {
				return nil, err
			}
			return []Runnable{{Fixture: sc.Fixture, Scenario: sc}}, nil
		}
		fxs, err := loadFixtures(p)
		if err != nil {
			return nil, err
		}
		out := make([]Runnable, len(fxs))
		for i, fx := range fxs {
			out[i] = Runnable{Fixture: fx}
		}
		return out, nil
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
	var out []Runnable
	byName := map[string]string{}
	for _, f := range files {
		rs, err := Load(f)
		if err != nil {
			return nil, err
		}
		for _, r := range rs {
			if prev, dup := byName[r.Fixture.Name]; dup {
				return nil, &fixture.Error{File: r.Fixture.File, Path: "$.name", Msg: fmt.Sprintf("duplicate fixture name '%s' (also in '%s')", r.Fixture.Name, prev)}
			}
			byName[r.Fixture.Name] = r.Fixture.File
		}
		out = append(out, rs...)
	}
	return out, nil
}

// Run runs r in fresh directories against the host of opts and fills in
// its replay hash; it returns the report and the run's normalized
// transcript. The commands of one of conform's own scenarios run whatever
// opts.Commands says; keep keeps the workspace.
func (r Runnable) Run(ctx context.Context, opts lab.Options, keep bool) (*lab.Report, *replay.Transcript, error) {
	var rep *lab.Report
	var err error
	if r.Trusted {
		opts.Commands = lab.TrustCommands
	}
	if r.Scenario != nil {
		rep, err = scenariofile.Run(ctx, r.Scenario, opts, keep)
	} else {
		rep, err = lab.Run(ctx, r.Fixture, opts, keep)
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

// ownRunnable loads the scenario file p from conform's embedded copy when
// p is one of conform's own scenarios (see ownScenario). ok is false for
// every other file, which the caller loads as a scenario from outside
// conform. What runs is always the embedded copy, never the file read
// again.
func ownRunnable(p string) (r Runnable, ok bool, err error) {
	own, ok := ownScenario(p)
	if !ok {
		return Runnable{}, false, nil
	}
	r.Trusted = true
	if scenariofile.IsScenario(p) {
		r.Scenario, err = scenariofile.Parse(p, own)
		if err == nil {
			r.Fixture = r.Scenario.Fixture
		}
		return r, true, err
	}
	r.Fixture, err = fixture.Parse(p, own)
	return r, true, err
}

// ownScenario returns conform's embedded copy of the scenario file p, if
// p is one: a file whose bytes are exactly those of an embedded scenario
// (lab.EmbeddedFile), or a path under fixtures/matrix/ that does not exist
// on disk and names one (the repro commands certify prints).
func ownScenario(p string) ([]byte, bool) {
	if own, _, ok := lab.EmbeddedFile(p); ok {
		return own, true
	}
	if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
		return nil, false
	}
	rel, ok := strings.CutPrefix(path.Clean(filepath.ToSlash(p)), fixtures.MatrixDir+"/")
	if !ok {
		return nil, false
	}
	own, err := fs.ReadFile(fixtures.Matrix(), rel)
	return own, err == nil
}

// loadScenario loads a scenario from disk or, for a path under
// fixtures/matrix/ that does not exist on disk, from the copy embedded in
// the binary.
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

// loadFixtures loads the fixture file or directory p. A path under
// fixtures/matrix/ that does not exist on disk is read from the copy of the
// matrix scenarios embedded in the binary, so that the repro commands
// certify prints work outside a checkout of conform.
func loadFixtures(p string) ([]*fixture.Fixture, error) {
	fxs, err := fixture.Load(p)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return fxs, err
	}
	rel, ok := strings.CutPrefix(p, fixtures.MatrixDir+"/")
	if !ok {
		return nil, err
	}
	if _, serr := os.Stat(p); !errors.Is(serr, fs.ErrNotExist) {
		return nil, err
	}
	data, rerr := fs.ReadFile(fixtures.Matrix(), rel)
	if rerr != nil {
		return nil, err
	}
	fx, perr := fixture.Parse(p, data)
	if perr != nil {
		return nil, perr
	}
	return []*fixture.Fixture{fx}, nil
}
