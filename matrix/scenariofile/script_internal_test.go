package scenariofile

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/galaxy-stack/conform/matrix/lab"
)

// runScript runs script with testscript, as Run does, over the commands
// of a state whose last run is a finished report (conform-run left out:
// it would start a host), plus "capture", which records the words
// testscript gives it. It returns the captured words, the log and the
// value a command panicked with ("" when none did).
func runScript(t *testing.T, script string) (captured [][]string, log, panicked string) {
	t.Helper()
	s := &state{
		sc: &Scenario{File: "f" + Ext}, fx: &fixture.Fixture{},
		rep: &lab.Report{Status: fixture.StatusCompleted}, contents: map[string]string{},
	}
	cmds := s.commands()
	delete(cmds, "conform-run")
	cmds["capture"] = func(_ *testscript.TestScript, _ bool, args []string) {
		captured = append(captured, slices.Clone(args))
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "f"+Ext)
	if err := os.WriteFile(file, txtar.Format(&txtar.Archive{Comment: []byte(script)}), 0o600); err != nil {
		t.Fatal(err)
	}
	st := &scriptT{}
	testscript.RunT(st, testscript.Params{Files: []string{file}, WorkdirRoot: dir, ContinueOnError: true, Cmds: cmds})
	return captured, st.log(), st.panicked
}

// testscriptWords returns the words testscript splits line into, and
// whether it could split it at all.
func testscriptWords(t *testing.T, line string) ([]string, bool) {
	t.Helper()
	captured, log, panicked := runScript(t, "capture "+line+"\n")
	if panicked != "" {
		t.Fatalf("capture panicked: %s", panicked)
	}
	if len(captured) != 1 {
		if !strings.Contains(log, "unterminated quoted argument") {
			t.Fatalf("testscript neither ran nor refused %q:\n%s", line, log)
		}
		return nil, false
	}
	return captured[0], true
}

// checkSplit fails when splitArgs, on a line it accepts, gives other
// words than testscript, or accepts a line testscript cannot split.
func checkSplit(t *testing.T, line string) {
	t.Helper()
	ours, err := splitArgs("capture " + line)
	if err != nil {
		if strings.Contains(err.Error(), "unterminated") {
			if _, ok := testscriptWords(t, line); ok {
				t.Fatalf("%q: splitArgs refuses it (%v), testscript splits it", line, err)
			}
		}
		return
	}
	theirs, ok := testscriptWords(t, line)
	if !ok {
		t.Fatalf("%q: splitArgs gives %q, testscript cannot split it", line, ours)
	}
	if !slices.Equal(ours[1:], theirs) {
		t.Fatalf("%q: splitArgs gives %q, testscript %q", line, ours[1:], theirs)
	}
}

func TestSplitArgsIsTestscripts(t *testing.T) {
	for _, line := range []string{
		"", "a b", "a\tb\rc", "\r#", "a#b c", "a #b", "'a b' c", "'it''s'", "''", "a'b c'd", "'#' x", "a'#'b",
		"'\r'", "a '' b", "x ' '", "\v", "\u00a0status x", "a\\ b",
	} {
		t.Run("", func(t *testing.T) { checkSplit(t, line) })
	}
	for _, line := range []string{"'a", "a 'b", "'it''s"} {
		if _, err := splitArgs(line); err == nil || !strings.Contains(err.Error(), "unterminated") {
			t.Errorf("splitArgs(%q) = %v, want unterminated", line, err)
		}
	}
	for _, line := range []string{"status $HOME", "file a$b", "x '$'$"} {
		if _, err := splitArgs(line); err == nil || !strings.Contains(err.Error(), "may not expand variables") {
			t.Errorf("splitArgs(%q) = %v, want a refused expansion", line, err)
		}
	}
	if words, err := splitArgs("file '$WORK'"); err != nil || !slices.Equal(words, []string{"file", "$WORK"}) {
		t.Errorf("a quoted $ is a plain character: %q, %v", words, err)
	}
}

func TestCommandsCheckTheirArguments(t *testing.T) {
	for _, line := range []string{"file", "status", "error-code", "file a equals", "file a b c d", "replay-hash a b", "resume max=x", "! file"} {
		t.Run(line, func(t *testing.T) {
			_, log, panicked := runScript(t, line+"\n")
			if panicked != "" {
				t.Fatalf("%q panicked: %s", line, panicked)
			}
			if !strings.Contains(log, "FAIL: ") {
				t.Fatalf("%q did not fail:\n%s", line, log)
			}
		})
	}
}

func TestScriptPanicFailsTheScript(t *testing.T) {
	st := &scriptT{}
	st.Run("x", func(testscript.T) { panic("boom") })
	if !st.failed() || st.panicked != "boom" || !strings.Contains(st.log(), "the script panicked: boom") {
		t.Fatalf("failed %v, panicked %q, log %q", st.failed(), st.panicked, st.log())
	}
}

// FuzzScriptLine feeds arbitrary lines to the loader's splitter and to
// testscript's: they must agree on every line the loader accepts; and a
// line the loader accepts must not make a command panic.
func FuzzScriptLine(f *testing.F) {
	for _, seed := range []string{"file \r#", "file a equals 'x y'", "! status failed", "resume on=paused max=3 tamper", "tools a '' b#c", "replay-hash", "error-code null"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if strings.ContainsAny(line, "\n") || len(line) > maxScriptLine {
			return
		}
		checkSplit(t, line)
		lines, err := checkScript("f"+Ext, line)
		if err != nil || len(lines) == 0 || lines[0].Args[0] == "conform-run" {
			return
		}
		if _, log, panicked := runScript(t, line+"\n"); panicked != "" {
			t.Fatalf("%q panicked: %s\n%s", line, panicked, log)
		}
	})
}
