// Package golden keeps the golden normalized transcripts of conform's
// shipped scenarios: one file per scenario, golden/<scenario path under
// fixtures/ with .json for its extension>, holding the transcript that the
// reference host's run of the scenario gives (package replay).
//
// `go test ./matrix/golden` runs every shipped scenario twice, in isolated
// temporary roots of different names, and checks that both runs give the
// golden transcript, printing a go-cmp diff of the first divergent event
// otherwise. A scenario without a golden file, or a golden file without a
// scenario, fails with "run conform golden update". Golden files are
// rewritten only by `go test ./matrix/golden -update` or `conform golden update`;
// review the diff before committing it.
package golden

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/galaxy-stack/conform/internal/wsfs"
	"github.com/galaxy-stack/conform/matrix/lab"
	"github.com/galaxy-stack/conform/matrix/replay"
	"github.com/galaxy-stack/conform/matrix/runs"
	"github.com/galaxy-stack/conform/matrix/scenariofile"
)

// Dir is the golden directory, ScenarioDirs the shipped scenario
// directories, relative to the repository root.
const Dir = "golden"

// ScenarioDirs are the directories, under the repository root, whose
// scenarios (.json fixtures and .txtar scenarios, walked recursively) are
// shipped.
var ScenarioDirs = []string{"fixtures/matrix", "fixtures/scenarios"}

// Volatile names, per shipped scenario, the workspace paths whose content
// the scenario makes machine-specific on purpose (a file holding an inode
// number, written to check that a failed write keeps the inode): their
// hashes are masked in the golden transcript (replay.Transcript.Mask).
// The replay hash conform run prints for these scenarios differs between
// runs.
var Volatile = map[string][]string{
	"fixtures/matrix/02-preconditioned-write/failure-keeps-inode.json": {"settings-inode.txt"},
	"fixtures/matrix/32-invalid-utf8/latin1-file.json":                 {"latin1-inode.txt"},
	// The commands write their process IDs, to find them in the process
	// table after the cancellation.
	"fixtures/matrix/05-canceled-model-command/canceled-command.json": {"pids.txt"},
	"fixtures/matrix/05-canceled-model-command/canceled-model.json":   {"pids.txt"},
}

// VolatileOf returns the Volatile paths of the shipped scenario at file,
// named from the repository root ("fixtures/matrix/…") or from anywhere in
// a checkout ("../../fixtures/matrix/…"); nil for any other scenario.
func VolatileOf(file string) []string {
	p := path.Clean(filepath.ToSlash(file))
	for k, v := range Volatile {
		if p == k || strings.HasSuffix(p, "/"+k) {
			return v
		}
	}
	return nil
}

// UnreplayableOf returns why the shipped scenario at file (named as for
// VolatileOf) has no golden transcript, or "".
func UnreplayableOf(file string) string {
	p := path.Clean(filepath.ToSlash(file))
	for k, why := range Unreplayable {
		if p == k || strings.HasSuffix(p, "/"+k) {
			return why
		}
	}
	return ""
}

// VolatileOfFixture returns the Volatile paths of the shipped scenario
// whose fixture is named name, wherever a copy of it runs from (a repro
// file, say); nil for any other name.
func VolatileOfFixture(name string) []string {
	volatileNamesOnce.Do(func() {
		volatileNames = map[string][]string{}
		for p, paths := range Volatile {
			// A path under fixtures/matrix/ loads from the copy built into
			// conform when it is not on disk.
			if rs, err := runs.Load(p); err == nil && len(rs) == 1 {
				volatileNames[rs[0].Fixture.Name] = paths
			}
		}
	})
	return volatileNames[name]
}

var (
	volatileNamesOnce sync.Once
	volatileNames     map[string][]string
)

// Unreplayable names the shipped scenarios that have no golden transcript,
// with the reason: each is a part of an item's Go spec that means nothing
// run alone on the machine that makes the golden files.
var Unreplayable = map[string]string{
	// Item 5's Go spec cancels the run at a moment of its choosing while the
	// command runs; alone, the command runs into its timeout, and how far
	// it got depends on the machine's speed.
	"fixtures/matrix/05-canceled-model-command/external/canceled-during-command.json": "item 5's Go spec cancels it mid-command",
	// Item 53 runs it only against hosts whose commands run in Windows cmd.
	"fixtures/matrix/53-dialect-probes/windows-cmd.json": "Windows cmd probes; the golden files are made with the reference host's sh",
}

// A Scenario is one shipped scenario.
type Scenario struct {
	// Path is the scenario's path relative to the repository root, in
	// slash form ("fixtures/matrix/01-read-only-inspect/inspect.json").
	Path string
	// Golden is its golden file's path relative to the root.
	Golden string
}

// GoldenPath returns the golden file of the scenario at the slash path p
// ("fixtures/x/y.txtar" → "golden/x/y.json").
func GoldenPath(p string) string {
	rel := strings.TrimPrefix(p, "fixtures/")
	return Dir + "/" + strings.TrimSuffix(rel, filepath.Ext(rel)) + ".json"
}

// Scenarios lists the shipped scenarios under root, in path order.
func Scenarios(root string) ([]Scenario, error) {
	var out []Scenario
	for _, d := range ScenarioDirs {
		base := filepath.Join(root, filepath.FromSlash(d))
		err := filepath.WalkDir(base, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) && p == base {
					return filepath.SkipDir
				}
				return err
			}
			if !e.Type().IsRegular() || !(strings.HasSuffix(p, ".json") || scenariofile.IsScenario(p)) {
				return nil
			}
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			rel = filepath.ToSlash(rel)
			if _, skip := Unreplayable[rel]; skip {
				return nil
			}
			out = append(out, Scenario{Path: rel, Golden: GoldenPath(rel)})
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// Goldens lists the golden files under root, slash paths relative to it.
func Goldens(root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(filepath.Join(root, Dir), func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.Type().IsRegular() && strings.HasSuffix(p, ".json") {
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

// Transcript runs the scenario at root/s.Path against the host of opts
// (the reference host, for golden files) and returns its transcript, the
// paths of Volatile masked. It loads and runs the scenario as `conform
// run` does (package runs): a scenario whose bytes are one of conform's
// embedded scenarios runs from the embedded copy, its commands trusted;
// any other runs them as opts.Commands says (lab.ContainCommands for a
// root that is not conform's own).
func Transcript(ctx context.Context, root string, s Scenario, opts lab.Options) (*replay.Transcript, error) {
	rs, err := runs.Load(filepath.Join(root, filepath.FromSlash(s.Path)))
	if err != nil {
		return nil, err
	}
	if len(rs) != 1 {
		return nil, fmt.Errorf("%s: expected one fixture, found %d", s.Path, len(rs))
	}
	r := rs[0]
	if r.Scenario != nil {
		r.Scenario.Fixture.File, r.Scenario.File = s.Path, s.Path
	}
	_, t, err := r.Run(ctx, opts, false)
	if err != nil {
		return nil, err
	}
	if t == nil {
		return nil, fmt.Errorf("%s: the run gave no report", s.Path)
	}
	return t.Mask(Volatile[s.Path]...), nil
}

// MaxBytes is the largest golden file Read reads: 64 MiB, far above any
// transcript of a shipped scenario.
const MaxBytes int64 = 64 << 20

// Read reads the golden transcript of s. Like Write, it follows no
// symbolic link under root.
func Read(root string, s Scenario) (*replay.Transcript, error) {
	r, err := wsfs.Open(root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	b, err := r.ReadFile(s.Golden, MaxBytes)
	if err != nil {
		return nil, err
	}
	return replay.Parse(b)
}

// Write writes t as the golden transcript of s, atomically, through
// package wsfs: a symbolic link anywhere on the way under root (golden/
// itself, golden/scenarios, …) refuses the write, and a link at the file
// is replaced, never followed, so nothing outside root is written.
func Write(root string, s Scenario, t *replay.Transcript) error {
	b, err := t.JSON()
	if err != nil {
		return err
	}
	r, err := wsfs.Open(root)
	if err != nil {
		return err
	}
	defer r.Close()
	return r.WriteFile(s.Golden, b, 0o644)
}

// Update runs every shipped scenario under root against the host of opts,
// rewrites every golden file and removes golden files whose scenario is
// gone. It runs up to parallel scenarios at once and returns the paths it
// wrote and removed.
func Update(ctx context.Context, root string, opts lab.Options, parallel int) (written, removed []string, err error) {
	scs, err := Scenarios(root)
	if err != nil {
		return nil, nil, err
	}
	ts := make([]*replay.Transcript, len(scs))
	errs := make([]error, len(scs))
	sem := make(chan struct{}, max(parallel, 1))
	var wg sync.WaitGroup
	for i, s := range scs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			ts[i], errs[i] = Transcript(ctx, root, s, opts)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, nil, err
	}
	keep := map[string]bool{}
	for i, s := range scs {
		if err := Write(root, s, ts[i]); err != nil {
			return written, nil, err
		}
		keep[s.Golden] = true
		written = append(written, s.Golden)
	}
	gs, err := Goldens(root)
	if err != nil {
		return written, nil, err
	}
	r, err := wsfs.Open(root)
	if err != nil {
		return written, nil, err
	}
	defer r.Close()
	for _, g := range gs {
		if !keep[g] {
			if err := r.RemoveAll(g); err != nil {
				return written, removed, err
			}
			removed = append(removed, g)
		}
	}
	return written, removed, nil
}
