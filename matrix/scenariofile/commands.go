package scenariofile

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/galaxy-stack/conform/matrix/lab"
	"github.com/galaxy-stack/conform/matrix/snapshot"
)

type cmdFunc = func(ts *testscript.TestScript, neg bool, args []string)

// commands returns the harness's script commands over s, each checking
// its arguments as the loader does before it looks at them, so that no
// line reaches a command with fewer words than it reads.
func (s *state) commands() map[string]cmdFunc {
	cmds := s.rawCommands()
	for name, f := range cmds {
		cmds[name] = func(ts *testscript.TestScript, neg bool, args []string) {
			if err := checkArgs(append([]string{name}, args...)); err != nil {
				ts.Fatalf("%s: %v", name, err)
			}
			f(ts, neg, args)
		}
	}
	return cmds
}

// rawCommands returns the script commands, which trust their arguments
// to have passed checkArgs.
func (s *state) rawCommands() map[string]cmdFunc {
	return map[string]cmdFunc{
		"conform-run": s.cmdRun,
		"resume":      s.cmdResume,
		"status": s.assert("status", func(rep *lab.Report, args []string) (bool, string) {
			return rep.Status == args[0], "status " + rep.Status
		}),
		"error-code": s.assert("error-code", func(rep *lab.Report, args []string) (bool, string) {
			got := "null"
			if rep.ErrorCode != nil {
				got = *rep.ErrorCode
			}
			return got == args[0], "error code " + got
		}),
		"tools": s.assert("tools", func(rep *lab.Report, args []string) (bool, string) {
			got := []string{}
			if rep.Observed != nil {
				got = rep.Observed.ToolSequence
			}
			return slices.Equal(got, args), "tool sequence " + list(got)
		}),
		"effects": s.assert("effects", func(rep *lab.Report, args []string) (bool, string) {
			got := []string{}
			if rep.Observed != nil {
				for _, w := range rep.Observed.Writes {
					got = append(got, w.Path)
				}
			}
			return slices.Equal(got, args), "write evidence for " + list(got)
		}),
		"changes": s.assert("changes", func(rep *lab.Report, args []string) (bool, string) {
			got := []string{}
			if rep.Observed != nil {
				got = append(got, rep.Observed.ChangedPaths()...)
			}
			want := slices.Clone(args)
			slices.Sort(want)
			return slices.Equal(got, want), "changed paths " + list(got)
		}),
		"file":        s.assert("file", s.fileCheck),
		"replay-hash": s.cmdHash,
	}
}

func list(s []string) string {
	if len(s) == 0 {
		return "(none)"
	}
	return strings.Join(s, " ")
}

// assert makes a command of check, which says whether the last run meets
// the line's arguments and what the run showed.
func (s *state) assert(name string, check func(rep *lab.Report, args []string) (bool, string)) cmdFunc {
	return func(ts *testscript.TestScript, neg bool, args []string) {
		rep := s.last(ts)
		ok, got := check(rep, args)
		line := strings.Join(append([]string{name}, args...), " ")
		switch {
		case ok && neg:
			ts.Fatalf("! %s: the run shows %s", line, got)
		case !ok && !neg:
			ts.Fatalf("%s: the run shows %s", line, got)
		}
	}
}

func (s *state) last(ts *testscript.TestScript) *lab.Report {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rep == nil {
		ts.Fatalf("no conform-run has run yet")
	}
	return s.rep
}

func (s *state) cmdRun(ts *testscript.TestScript, neg bool, _ []string) {
	s.negRun = s.negRun || neg
	if err := s.run(); err != nil {
		ts.Fatalf("the scenario could not run: %v", err)
	}
	rep := s.rep
	switch {
	case neg && rep.Passed:
		ts.Fatalf("expected the oracle to fail; it passed")
	case !neg && !rep.Passed:
		var names []string
		for _, f := range rep.Failures {
			names = append(names, f.Assertion)
		}
		ts.Fatalf("the oracle failed (%s; see its failures)", strings.Join(names, ", "))
	}
}

func (s *state) cmdResume(ts *testscript.TestScript, _ bool, args []string) {
	rt := &fixture.Runtime{}
	if s.fx.Runtime != nil {
		rt = s.fx.Runtime
	}
	r := &fixture.Resume{On: fixture.StatusPaused, MaxExecutions: 2}
	if rt.Resume != nil {
		r = rt.Resume
	}
	for _, a := range args {
		switch {
		case a == "tamper":
			r.TamperCheckpoint = true
		case a == "fresh-host":
			r.RecreateHost = true
		case strings.HasPrefix(a, "on="):
			r.On = strings.TrimPrefix(a, "on=")
		case strings.HasPrefix(a, "max="):
			fmt.Sscanf(strings.TrimPrefix(a, "max="), "%d", &r.MaxExecutions)
		}
	}
	rt.Resume = r
	s.fx.Runtime = rt
	ts.Logf("resume on %s, up to %d executions, tamper %v, fresh host %v", r.On, r.MaxExecutions, r.TamperCheckpoint, r.RecreateHost)
}

func (s *state) cmdHash(ts *testscript.TestScript, neg bool, args []string) {
	rep := s.last(ts)
	if len(args) == 0 {
		ts.Logf("replay hash %s", rep.ReplayHash)
		return
	}
	ok := rep.ReplayHash == args[0]
	switch {
	case ok && neg:
		ts.Fatalf("expected another replay hash, got %s", rep.ReplayHash)
	case !ok && !neg:
		ts.Fatalf("replay hash %s, expected %s", rep.ReplayHash, args[0])
	}
}

// fileCheck checks a workspace path of the final snapshot: exists as a
// file, absent, equals or contains a text.
func (s *state) fileCheck(rep *lab.Report, args []string) (bool, string) {
	p := args[0]
	if rep.Observed == nil {
		return false, "no workspace"
	}
	var entry *snapshot.Entry
	for i, e := range rep.Observed.Final {
		if e.Path == p {
			entry = &rep.Observed.Final[i]
		}
	}
	if len(args) == 2 { // absent
		if entry == nil {
			return true, p + " absent"
		}
		return false, p + " is a " + entry.Kind
	}
	if entry == nil {
		return false, p + " absent"
	}
	if len(args) == 1 {
		return entry.Kind == effects.KindFile, p + " is a " + entry.Kind
	}
	content, ok := s.contents[p]
	if !ok {
		return false, p + " is not a readable file"
	}
	switch args[1] {
	case "equals":
		return content == args[2], fmt.Sprintf("%s holds %q", p, clip(content))
	case "line":
		return content == args[2]+"\n", fmt.Sprintf("%s holds %q", p, clip(content))
	}
	return strings.Contains(content, args[2]), fmt.Sprintf("%s holds %q", p, clip(content))
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}
