package compare

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/galaxy-stack/conform/fixtures"
	"github.com/galaxy-stack/conform/matrix/golden"
	"github.com/galaxy-stack/conform/matrix/replay"
	"github.com/galaxy-stack/conform/matrix/runs"
)

// A Host is one host to compare.
type Host struct {
	// Name is how the output names it: the --host value, with its
	// --mutant or --variant.
	Name string
	// Host, Mutant and Argv are the runs.Config fields of its runs.
	Host, Mutant string
	Argv         []string
}

// Config says what to compare.
type Config struct {
	Hosts []Host
	// Paths are the scenarios (files or directories); none: the shipped
	// library (see Shipped).
	Paths []string
	// HostEnv names variables passed to every host beside the allowlist.
	HostEnv []string
	// AllowUncontained lets the commands of scenarios from outside
	// conform reach hosts without verified containment.
	AllowUncontained bool
	// ReproDir, when set, is where every scenario the hosts differ on gets
	// a self-contained txtar repro naming the compare command to run it.
	ReproDir string
}

// Run runs every scenario on every host (the hosts at once, each its
// scenarios one after the other, as conform run does) and compares the
// transcripts. The content hashes of the workspace paths a shipped
// scenario makes machine-specific on purpose (golden.Volatile) are masked
// first, as in the golden files. ctx bounds the whole comparison.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	paths := cfg.Paths
	if len(paths) == 0 {
		var err error
		if paths, err = Shipped("."); err != nil {
			return nil, err
		}
	}
	names := make([]string, len(cfg.Hosts))
	results := make([]*runs.Result, len(cfg.Hosts))
	errs := make([]error, len(cfg.Hosts))
	var wg sync.WaitGroup
	for i, h := range cfg.Hosts {
		names[i] = h.Name
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = runs.Run(ctx, runs.Config{Host: h.Host, Mutant: h.Mutant, Argv: h.Argv, HostEnv: cfg.HostEnv,
				Paths: paths, AllowUncontained: cfg.AllowUncontained})
			if errs[i] != nil {
				errs[i] = fmt.Errorf("%s: %w", h.Name, errs[i])
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("compare: %w", context.Cause(ctx))
	}
	// Scenario files in the first host's run order; every host ran the
	// same list.
	var files []string
	byHost := make([][]*replay.Transcript, len(cfg.Hosts))
	index := map[string]int{}
	for _, rep := range results[0].Fixtures.Reports {
		index[rep.File] = len(files)
		files = append(files, rep.File)
	}
	for i, r := range results {
		byHost[i] = make([]*replay.Transcript, len(files))
		byName := map[string]*replay.Transcript{}
		for _, t := range r.Transcripts {
			byName[t.Fixture] = t
		}
		for _, rep := range r.Fixtures.Reports {
			j, ok := index[rep.File]
			t := byName[rep.Fixture]
			if !ok || t == nil {
				continue
			}
			byHost[i][j] = t.Mask(slices.Concat(golden.VolatileOf(rep.File), golden.VolatileOfFixture(rep.Fixture))...)
		}
	}
	res, err := Transcripts(names, files, byHost)
	if err != nil || cfg.ReproDir == "" {
		return res, err
	}
	for _, e := range writeRepros(cfg.ReproDir, cfg.Hosts, res) {
		res.ReproErrors = append(res.ReproErrors, e.Error())
	}
	return res, nil
}

// Shipped lists the shipped scenarios that have a golden transcript: those
// of root's fixtures/ when root is a checkout (golden.Scenarios), else the
// matrix scenarios built into conform, which conform run reads from the
// embedded copy.
func Shipped(root string) ([]string, error) {
	if st, err := os.Stat(filepath.Join(root, "fixtures", "matrix")); err == nil && st.IsDir() {
		scs, err := golden.Scenarios(root)
		if err != nil {
			return nil, err
		}
		out := make([]string, len(scs))
		for i, s := range scs {
			out[i] = filepath.Join(root, filepath.FromSlash(s.Path))
		}
		return out, nil
	}
	var out []string
	err := fs.WalkDir(fixtures.Matrix(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
			return err
		}
		full := path.Join("fixtures/matrix", p)
		if _, skip := golden.Unreplayable[full]; !skip {
			out = append(out, full)
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}
