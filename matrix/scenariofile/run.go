package scenariofile

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/galaxy-stack/conform/matrix/lab"
	"github.com/galaxy-stack/conform/matrix/oracle"
	"github.com/galaxy-stack/conform/matrix/replay"
)

// Run runs the scenario's script against the host of opts (lab.Run for
// every conform-run, in a fresh temporary directory each) and returns the
// report of the last run, with its ReplayHash set and every failed script
// line appended to its failures (assertion "script"). The verdict is the
// script's: a scenario whose script expects the oracle to fail ("!
// conform-run") passes when it does.
//
// The error is lab.Run's, for a run that could not happen (an
// *lab.InvocationError, a cancelled ctx).
func Run(ctx context.Context, sc *Scenario, opts lab.Options, keep bool) (*lab.Report, error) {
	s := &state{ctx: ctx, sc: sc, opts: opts, keep: keep, fx: cloneFixture(sc.Fixture)}
	if !sc.hasRun() {
		if err := s.run(); err != nil {
			return nil, err
		}
		if len(sc.Lines) == 0 {
			return s.rep, nil
		}
	}
	failures, err := s.script()
	if s.err != nil {
		return nil, s.err
	}
	if err != nil {
		return nil, err
	}
	rep := s.rep
	if rep == nil {
		rep = &lab.Report{Fixture: sc.Fixture.Name, File: sc.File, RunID: sc.Fixture.RunID(), Status: "not_run"}
	}
	if s.negRun && len(failures) == 0 {
		// The script expected the oracle to fail and it did: the oracle's
		// failures are the scenario's evidence, not its verdict. A call
		// conform refused to send uncontained is never expected: the
		// scenario did not run as written.
		var refused []oracle.Failure
		rep.ExpectedFailures, refused = splitRefused(rep.Failures)
		rep.Failures = append([]oracle.Failure{}, refused...)
		rep.Passed = len(rep.Failures) == 0
		return rep, nil
	}
	rep.Failures = append(rep.Failures, failures...)
	rep.Passed = len(rep.Failures) == 0
	return rep, nil
}

// splitRefused splits failures into the others and those of calls
// conform refused to send uncontained (lab.UncontainedCommandAssertion).
func splitRefused(failures []oracle.Failure) (others, refused []oracle.Failure) {
	for _, f := range failures {
		if f.Assertion == lab.UncontainedCommandAssertion {
			refused = append(refused, f)
		} else {
			others = append(others, f)
		}
	}
	return others, refused
}

// state is one scenario run: the fixture as the script's resume lines
// changed it, and the last conform-run's report.
type state struct {
	ctx    context.Context
	sc     *Scenario
	opts   lab.Options
	keep   bool
	fx     *fixture.Fixture
	mu     sync.Mutex
	rep    *lab.Report
	tr     *replay.Transcript
	err    error // a run that could not happen
	negRun bool
	// contents are the final contents of the files the script's file
	// lines read, by path.
	contents map[string]string
}

func (s *state) run() error {
	var contents map[string]string
	opts := s.opts
	opts.Inspect = func(d lab.Dirs) { contents = s.readFiles(d.Workspace) }
	rep, err := lab.Run(s.ctx, s.fx, opts, s.keep)
	if err != nil {
		s.err = err
		return err
	}
	tr := replay.Build(rep)
	if rep.ReplayHash, err = tr.Hash(); err != nil {
		return err
	}
	s.mu.Lock()
	s.rep, s.tr, s.contents = rep, tr, contents
	s.mu.Unlock()
	return nil
}

// failLine matches testscript's failure lines: "FAIL: FILE:LINE: MESSAGE".
var failLine = regexp.MustCompile(`(?m)^FAIL: .*?:(\d+): (.*)$`)

// script runs the scenario's script with testscript, in a work directory
// of its own that is removed afterwards, and returns its failed lines.
func (s *state) script() ([]oracle.Failure, error) {
	root, err := os.MkdirTemp("", "conform-scenario-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(root)
	// The script engine reads the archive from a file: a copy holding only
	// the comment, so nothing of the archive is unpacked beside it.
	file := filepath.Join(root, "scenario"+Ext)
	if err := os.WriteFile(file, txtar.Format(&txtar.Archive{Comment: []byte(s.sc.Script)}), 0o600); err != nil {
		return nil, err
	}
	work := filepath.Join(root, "work")
	if err := os.Mkdir(work, 0o700); err != nil {
		return nil, err
	}
	t := &scriptT{}
	testscript.RunT(t, testscript.Params{
		Files: []string{file}, WorkdirRoot: work, ContinueOnError: true,
		Cmds: s.commands(),
	})
	var out []oracle.Failure
	for _, m := range failLine.FindAllStringSubmatch(t.log(), -1) {
		msg := fmt.Sprintf("%s:%s: %s", s.sc.File, m[1], m[2])
		out = append(out, oracle.Failure{File: s.sc.File, Assertion: "script", Expected: "script line " + m[1] + " holds",
			Actual: m[2], Message: msg})
	}
	if t.failed() && len(out) == 0 {
		out = append(out, oracle.Failure{File: s.sc.File, Assertion: "script", Expected: "the script runs",
			Actual: strings.TrimSpace(t.log()), Message: s.sc.File + ": the script failed: " + strings.TrimSpace(t.log())})
	}
	return out, nil
}

// scriptT is the testscript.T of a script run outside go test: it
// collects the log and turns FailNow into the end of the script's
// goroutine, as the testing package does.
type scriptT struct {
	mu       sync.Mutex
	buf      strings.Builder
	fail     bool
	panicked string // the value a command panicked with, if one did
}

func (t *scriptT) Skip(args ...any) { t.Log(args...); runtime.Goexit() }
func (t *scriptT) Fatal(args ...any) {
	t.Log(args...)
	t.FailNow()
}
func (t *scriptT) Parallel() {}
func (t *scriptT) Log(args ...any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	fmt.Fprintln(&t.buf, args...)
}
func (t *scriptT) FailNow() {
	t.mu.Lock()
	t.fail = true
	t.mu.Unlock()
	runtime.Goexit()
}
func (t *scriptT) Run(_ string, f func(testscript.T)) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			// A command that panics fails the script instead of
			// ending conform; testscript has removed its work
			// directory on the way out.
			if r := recover(); r != nil {
				t.mu.Lock()
				t.panicked = fmt.Sprint(r)
				t.mu.Unlock()
				t.Log("the script panicked:", r)
				t.mu.Lock()
				t.fail = true
				t.mu.Unlock()
			}
		}()
		f(t)
	}()
	<-done
}
func (t *scriptT) Verbose() bool { return false }

func (t *scriptT) log() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.String()
}

func (t *scriptT) failed() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.fail
}

// cloneFixture copies fx deeply enough for resume lines to change its
// runtime block.
func cloneFixture(fx *fixture.Fixture) *fixture.Fixture {
	c := *fx
	if fx.Runtime != nil {
		rt := *fx.Runtime
		if rt.Resume != nil {
			r := *rt.Resume
			r.MutateBeforeResume = slices.Clone(r.MutateBeforeResume)
			rt.Resume = &r
		}
		c.Runtime = &rt
	}
	return &c
}

// readFiles reads, from the kept workspace ws, the regular files the
// script's file lines compare, without following links out of it.
func (s *state) readFiles(ws string) map[string]string {
	out := map[string]string{}
	if ws == "" {
		return out
	}
	root, err := os.OpenRoot(ws)
	if err != nil {
		return out
	}
	defer root.Close()
	for _, l := range s.sc.Lines {
		if l.Args[0] != "file" || len(l.Args) != 4 {
			continue
		}
		p := l.Args[1]
		st, err := root.Lstat(p)
		if err != nil || !st.Mode().IsRegular() || st.Size() > fixture.MaxFileSize {
			continue
		}
		b, err := root.ReadFile(p)
		if err == nil {
			out[p] = string(b)
		}
	}
	return out
}
