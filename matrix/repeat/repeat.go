// Package repeat runs scenarios several times in perturbed surroundings and
// says whether each is deterministic: `conform run --repeat K` as a
// library.
//
// Repetition i runs every scenario once, in a fresh host process and
// workspace as conform run does, with its surroundings changed: the
// temporary directory the workspaces are made in (another name and
// depth), TZ, the order of the host's environment variables, and the
// order in which the scenarios run (as given, reversed, rotated). Start
// times differ because repetitions run one after another. A scenario is
// then
//
//   - deterministic: every repetition has the same status and replay hash;
//   - nondeterministic: the statuses agree and the hashes do not; the
//     first divergent transcript event is named;
//   - flaky: the status (or whether the oracle passed) varies.
//
// Run changes the process's TMPDIR, TZ and environment order while it
// runs, and restores them: it runs alone in its process.
package repeat

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/galaxy-stack/conform/matrix/golden"
	"github.com/galaxy-stack/conform/matrix/lab"
	"github.com/galaxy-stack/conform/matrix/replay"
	"github.com/galaxy-stack/conform/matrix/runs"
)

// The verdicts.
const (
	Deterministic    = "deterministic"
	Nondeterministic = "nondeterministic"
	Flaky            = "flaky"
)

// Config says what to repeat.
type Config struct {
	// Run is the run to repeat; its Paths are expanded to scenario files
	// (a directory to the files in it) and reordered per repetition.
	// Campaign, Keep and Finished are not used.
	Run runs.Config
	// Times is how many times each scenario runs, two or more.
	Times int
}

// A Surrounding is what one repetition changed.
type Surrounding struct {
	TempDir string `json:"tempDir"`
	TZ      string `json:"tz"`
	// EnvOrder is the order the allowlisted variables were put in.
	EnvOrder []string `json:"envOrder"`
	// Order is the scenario order: "as given", "reversed", "rotated by N".
	Order string `json:"order"`
}

// A Scenario is one scenario's verdict.
type Scenario struct {
	File    string `json:"file"`
	Verdict string `json:"verdict"`
	// Statuses and Hashes are those of each repetition, in repetition
	// order; Passed whether the oracle passed.
	Statuses []string `json:"statuses"`
	Passed   []bool   `json:"passed"`
	Hashes   []string `json:"hashes"`
	// Unreplayable, for a shipped scenario that means nothing run alone
	// (golden.Unreplayable), says why; its verdict is not counted.
	Unreplayable string `json:"unreplayable,omitempty"`
	// Divergence is, for a nondeterministic scenario, where the first
	// repetition whose hash differs from the first one's diverges from it.
	Divergence *Divergence `json:"divergence,omitempty"`
}

// A Divergence is where repetition Repetition (1-based) first differs from
// repetition 1.
type Divergence struct {
	Repetition int    `json:"repetition"`
	Where      string `json:"where"`
	Diff       string `json:"diff"`
}

// Result is what the repetitions found.
type Result struct {
	Times        int           `json:"times"`
	Surroundings []Surrounding `json:"surroundings"`
	Scenarios    []Scenario    `json:"scenarios"`
	// Counts of each verdict, and of scenarios that failed their oracle in
	// some repetition.
	Deterministic    int `json:"deterministic"`
	Nondeterministic int `json:"nondeterministic"`
	Flaky            int `json:"flaky"`
	Failed           int `json:"failed"`
	Unreplayable     int `json:"unreplayable"`
	// Stopped or TimedOut is ctx's cause when it ended the repetitions;
	// the scenarios are then those every repetition finished.
	Stopped  error `json:"-"`
	TimedOut error `json:"-"`
}

// Run runs the repetitions and returns the verdicts.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if cfg.Times < 2 {
		return nil, &lab.InvocationError{Err: fmt.Errorf("repeat: want two repetitions or more, got %d", cfg.Times)}
	}
	files, err := expand(cfg.Run.Paths)
	if err != nil {
		return nil, err
	}
	base, err := os.MkdirTemp("", "conform-repeat-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(base)
	restore := saveEnv()
	defer restore()

	res := &Result{Times: cfg.Times, Scenarios: []Scenario{}}
	byFile := map[string]*Scenario{}
	firsts := map[string]*replay.Transcript{} // the first repetition's transcripts
	for i := range cfg.Times {
		sur, order, err := perturb(base, i, files)
		if err != nil {
			return nil, err
		}
		res.Surroundings = append(res.Surroundings, sur)
		rc := cfg.Run
		rc.Paths, rc.Campaign, rc.Keep, rc.Finished = order, "", false, nil
		out, err := runs.Run(ctx, rc)
		if err != nil {
			return nil, err
		}
		if out.Stopped != nil || out.TimedOut != nil {
			res.Stopped, res.TimedOut = out.Stopped, out.TimedOut
			break
		}
		byName := map[string]*replay.Transcript{}
		for _, t := range out.Transcripts {
			byName[t.Fixture] = t
		}
		for _, rep := range out.Fixtures.Reports {
			s := byFile[rep.File]
			if s == nil {
				s = &Scenario{File: rep.File}
				byFile[rep.File] = s
			}
			hash := ""
			if t := byName[rep.Fixture]; t != nil {
				t.Mask(slices.Concat(golden.VolatileOf(rep.File), golden.VolatileOfFixture(rep.Fixture))...)
				hash, _ = t.Hash()
				if len(s.Hashes) > 0 && hash != s.Hashes[0] && s.Divergence == nil {
					s.Divergence = diverge(len(s.Hashes)+1, firsts[rep.File], t)
				}
				if len(s.Hashes) == 0 {
					firsts[rep.File] = t
				}
			}
			s.Statuses = append(s.Statuses, rep.Status)
			s.Passed = append(s.Passed, rep.Passed || rep.NotApplicable != "")
			s.Hashes = append(s.Hashes, hash)
		}
	}
	for _, f := range files {
		s := byFile[f]
		if s == nil || len(s.Hashes) < len(res.Surroundings) {
			continue
		}
		s.Verdict = verdict(s)
		if s.Unreplayable = golden.UnreplayableOf(f); s.Unreplayable != "" {
			res.Unreplayable++
			res.Scenarios = append(res.Scenarios, *s)
			continue
		}
		switch s.Verdict {
		case Deterministic:
			res.Deterministic++
		case Nondeterministic:
			res.Nondeterministic++
		case Flaky:
			res.Flaky++
		}
		for _, p := range s.Passed {
			if !p {
				res.Failed++
				break
			}
		}
		res.Scenarios = append(res.Scenarios, *s)
	}
	return res, nil
}

func verdict(s *Scenario) string {
	for i := range s.Statuses {
		if s.Statuses[i] != s.Statuses[0] || s.Passed[i] != s.Passed[0] {
			return Flaky
		}
	}
	for _, h := range s.Hashes {
		if h != s.Hashes[0] {
			return Nondeterministic
		}
	}
	return Deterministic
}

func diverge(rep int, first, t *replay.Transcript) *Divergence {
	if first == nil {
		return &Divergence{Repetition: rep, Where: "the first repetition has no transcript"}
	}
	d := replay.Diverge(first, t)
	if d == nil {
		return nil
	}
	return &Divergence{Repetition: rep, Where: d.Where, Diff: d.Diff}
}

// expand turns paths into scenario files, a directory into the files
// conform run would run from it, in its order.
func expand(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		rs, err := runs.Load(p)
		if err != nil {
			return nil, err
		}
		for _, r := range rs {
			out = append(out, r.Fixture.File)
		}
	}
	if len(out) == 0 {
		return nil, &lab.InvocationError{Err: fmt.Errorf("repeat: no fixture given")}
	}
	return out, nil
}

// zones are the TZ values the repetitions take in turn: offsets of whole,
// half and three-quarter hours on both sides of UTC.
var zones = []string{"UTC", "America/St_Johns", "Asia/Kathmandu", "Pacific/Chatham", "America/Los_Angeles"}

// perturb sets the surroundings of repetition i under base and returns
// them with the scenario order.
func perturb(base string, i int, files []string) (Surrounding, []string, error) {
	// Another name and depth each time: "r0", "rep-1-xx/d", …
	name := fmt.Sprintf("r%d", i)
	if i > 0 {
		name = fmt.Sprintf("rep %d-%s", i, strings.Repeat("x", 4*i))
	}
	dir := filepath.Join(base, name)
	if i > 0 {
		for d := range i {
			dir = filepath.Join(dir, fmt.Sprintf("d%d", d))
		}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return Surrounding{}, nil, err
	}
	tz := zones[i%len(zones)]
	os.Setenv("TMPDIR", dir)
	os.Setenv("TZ", tz)
	envOrder := reorderEnv(i)
	order := make([]string, len(files))
	desc := "as given"
	switch {
	case i%3 == 1:
		for k, f := range files {
			order[len(files)-1-k] = f
		}
		desc = "reversed"
	case i%3 == 2 && len(files) > 1:
		n := len(files) / 2
		copy(order, append(append([]string{}, files[n:]...), files[:n]...))
		desc = fmt.Sprintf("rotated by %d", n)
	default:
		copy(order, files)
	}
	return Surrounding{TempDir: fmt.Sprintf("depth %d, named %q", i+1, name), TZ: tz, EnvOrder: envOrder, Order: desc}, order, nil
}
