package scenariofile

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/galaxy-stack/conform/matrix/fixture"
)

// Ext is the file extension of a scenario.
const Ext = ".txtar"

// The archive's file names.
const (
	ScenarioName  = "scenario.json"
	WorkspaceDir  = "workspace/"
	base64Suffix  = ".base64"
	maxScriptLine = 4096
)

// A Scenario is a loaded txtar scenario.
type Scenario struct {
	// File is the archive's path as given.
	File string
	// Fixture is scenario.json with the workspace/ files appended to its
	// initialFiles; Fixture.File is the archive's path.
	Fixture *fixture.Fixture
	// Script is the archive's comment.
	Script string
	// Lines are the script's command lines, checked.
	Lines []Line
}

// A Line is one command line of a scenario's script.
type Line struct {
	// N is the line's number in the archive (the script starts at line 1).
	N int
	// Text is the line as written.
	Text string
	// Neg is true for a line starting with "!".
	Neg bool
	// Args are the command and its arguments, quotes removed.
	Args []string
}

// IsScenario reports whether name is a scenario file by its extension.
func IsScenario(name string) bool { return strings.HasSuffix(name, Ext) }

// Load reads and checks the scenario at name. Every error is a
// *fixture.Error.
func Load(name string) (*Scenario, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, &fixture.Error{File: name, Msg: fmt.Sprintf("unable to read scenario: %v", err), Err: err}
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() > fixture.MaxFileSize {
		return nil, tooLarge(name, st.Size())
	}
	data, err := io.ReadAll(io.LimitReader(f, fixture.MaxFileSize+1))
	if err != nil {
		return nil, &fixture.Error{File: name, Msg: fmt.Sprintf("unable to read scenario: %v", err), Err: err}
	}
	return Parse(name, data)
}

func tooLarge(name string, size int64) *fixture.Error {
	return &fixture.Error{File: name, Msg: fmt.Sprintf("scenario is %d bytes, over the limit of %d bytes: split it, or raise the limit (conform run --max-fixture-size)", size, fixture.MaxFileSize)}
}

// lineErr is an error about line n of the archive.
func lineErr(name string, n int, format string, args ...any) *fixture.Error {
	return &fixture.Error{File: fmt.Sprintf("%s:%d", name, n), Msg: fmt.Sprintf(format, args...)}
}

// Parse checks and parses the scenario data read from name.
func Parse(name string, data []byte) (*Scenario, error) {
	if int64(len(data)) > fixture.MaxFileSize {
		return nil, tooLarge(name, int64(len(data)))
	}
	if !utf8.Valid(data) {
		n := 1 + bytes.Count(data[:invalidAt(data)], []byte("\n"))
		return nil, lineErr(name, n, "the scenario is not UTF-8 text (write binary workspace files in base64, as workspace/NAME%s)", base64Suffix)
	}
	// txtar.Parse panics on a marker line "-- --" (go-internal v1.16):
	// refuse it first.
	for i, l := range strings.Split(string(data), "\n") {
		if strings.TrimSuffix(l, "\r") == "-- --" {
			return nil, lineErr(name, i+1, "a file marker without a file name")
		}
	}
	a := txtar.Parse(data)
	sc := &Scenario{File: name, Script: string(a.Comment)}
	lines, err := checkScript(name, sc.Script)
	if err != nil {
		return nil, err
	}
	sc.Lines = lines
	markers := markerLines(data)
	var doc []byte
	docLine := 0
	type seed struct {
		path    string
		content []byte
		line    int
	}
	var seeds []seed
	seen := map[string]int{}
	for i, f := range a.Files {
		line := 0
		if i < len(markers) {
			line = markers[i]
		}
		if prev, dup := seen[f.Name]; dup {
			return nil, lineErr(name, line, "duplicate archive file %q (also at line %d)", f.Name, prev)
		}
		seen[f.Name] = line
		if err := checkName(f.Name); err != nil {
			return nil, lineErr(name, line, "archive file %q: %v", f.Name, err)
		}
		switch {
		case f.Name == ScenarioName:
			doc, docLine = f.Data, line
		case strings.HasPrefix(f.Name, WorkspaceDir) && len(f.Name) > len(WorkspaceDir):
			rel := strings.TrimPrefix(f.Name, WorkspaceDir)
			content := f.Data
			if r, ok := strings.CutSuffix(rel, base64Suffix); ok && r != "" && !strings.HasSuffix(r, "/") {
				dec, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(string(f.Data)), ""))
				if err != nil {
					return nil, lineErr(name, line, "archive file %q is not base64: %v", f.Name, err)
				}
				rel, content = r, dec
			}
			seeds = append(seeds, seed{rel, content, line})
		default:
			return nil, lineErr(name, line, "archive file %q is neither %s nor under %s: a scenario holds only the fixture and the files that seed the workspace", f.Name, ScenarioName, WorkspaceDir)
		}
	}
	if doc == nil {
		return nil, &fixture.Error{File: name, Msg: "the scenario has no " + ScenarioName + " (the original fixture, as a file of the archive)"}
	}
	// JSON errors count lines within scenario.json, whose first line is
	// the one after its marker.
	docName := fmt.Sprintf("%s: %s (from line %d)", name, ScenarioName, docLine+1)
	fx, err := fixture.Parse(docName, doc)
	if err != nil {
		return nil, err
	}
	if len(seeds) > 0 {
		// The merged document checks the seeded paths with the fixture's
		// own path rules; the content goes in afterwards, so binary bytes
		// never pass through JSON.
		inDoc := make(map[string]bool, len(fx.InitialFiles))
		for _, f := range fx.InitialFiles {
			inDoc[f.Path] = true
		}
		files := make([]map[string]any, 0, len(seeds))
		for _, s := range seeds {
			if inDoc[s.path] {
				return nil, lineErr(name, s.line, "workspace file %q is also in %s's initialFiles", s.path, ScenarioName)
			}
			files = append(files, map[string]any{"path": s.path, "content": ""})
		}
		merged, err := appendInitialFiles(doc, files)
		if err != nil {
			return nil, &fixture.Error{File: docName, Msg: err.Error()}
		}
		mfx, err := fixture.Parse(name, merged)
		if err != nil {
			var fe *fixture.Error
			if errors.As(err, &fe) && strings.HasPrefix(fe.Path, "$.initialFiles[") {
				idx := indexOf(fe.Path) - len(fx.InitialFiles)
				if idx >= 0 && idx < len(seeds) {
					return nil, lineErr(name, seeds[idx].line, "workspace file %q: %s", seeds[idx].path, fe.Msg)
				}
			}
			return nil, err
		}
		n := len(fx.InitialFiles)
		for i, s := range seeds {
			mfx.InitialFiles[n+i].Content = string(s.content)
		}
		fx = mfx
	}
	fx.File = name
	if err := fixture.CheckResumes(fx, scriptMaxExecutions(sc.Lines)); err != nil {
		return nil, err
	}
	sc.Fixture = fx
	return sc, nil
}

// scriptMaxExecutions is the largest max=N of the script's resume lines,
// 0 without one: a script that allows more executions than the fixture
// makes the harness resume more often.
func scriptMaxExecutions(lines []Line) int {
	most := 0
	for _, l := range lines {
		if l.Args[0] != "resume" {
			continue
		}
		for _, a := range l.Args[1:] {
			var n int
			if _, err := fmt.Sscanf(strings.TrimPrefix(a, "max="), "%d", &n); err == nil && strings.HasPrefix(a, "max=") && n > most {
				most = n
			}
		}
	}
	return most
}

// appendInitialFiles returns the fixture document doc with files appended
// to its initialFiles.
func appendInitialFiles(doc []byte, files []map[string]any) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	list, _ := m["initialFiles"].([]any)
	for _, f := range files {
		list = append(list, f)
	}
	m["initialFiles"] = list
	return json.Marshal(m)
}

// indexOf returns N of a JSON path starting "$.initialFiles[N]".
func indexOf(p string) int {
	var n int
	if _, err := fmt.Sscanf(strings.TrimPrefix(p, "$.initialFiles["), "%d", &n); err != nil {
		return -1
	}
	return n
}

// checkName refuses archive names that could leave the work directory,
// reach a .git directory or be expanded by the script engine.
func checkName(n string) error {
	switch {
	case n == "":
		return errors.New("empty name")
	case strings.HasPrefix(n, "/") || (len(n) > 1 && n[1] == ':'):
		return errors.New("absolute path")
	case strings.ContainsAny(n, "\\$"):
		return errors.New(`a name may not contain "\" or "$"`)
	}
	for _, part := range strings.Split(n, "/") {
		switch {
		case part == "..":
			return errors.New(`".." in the path`)
		case strings.EqualFold(part, ".git"):
			return errors.New("a path under .git")
		}
	}
	if path.Clean(n) != n {
		return errors.New("not a clean slash path (no empty, \".\" or trailing components)")
	}
	return nil
}

// markerLines returns the line number of every txtar file marker in data.
func markerLines(data []byte) []int {
	var out []int
	for i, l := range strings.SplitAfter(string(data), "\n") {
		// As txtar reads a marker: "-- NAME --", NAME not blank.
		t := strings.TrimSuffix(strings.TrimSuffix(l, "\n"), "\r")
		if strings.HasPrefix(t, "-- ") && strings.HasSuffix(t, " --") && len(t) >= 6 && strings.TrimSpace(t[3:len(t)-3]) != "" {
			out = append(out, i+1)
		}
	}
	return out
}

func invalidAt(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}
