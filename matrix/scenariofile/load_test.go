package scenariofile_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/galaxy-stack/conform/matrix/scenariofile"
)

const okDoc = `{ "schemaVersion": 2, "name": "s", "task": "t", "rounds": [{ "content": "done", "finishReason": "stop" }] }
`

func TestParseSeedsTheWorkspace(t *testing.T) {
	ar := "conform-run\nstatus completed\n-- scenario.json --\n" + okDoc +
		"-- workspace/a.txt --\nhello\n-- workspace/bin/x.dat.base64 --\nAP8Q\n-- workspace/real.base64.base64 --\naGk=\n"
	sc, err := scenariofile.Parse("s.txtar", []byte(ar))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range sc.Fixture.InitialFiles {
		got[f.Path] = f.Content
	}
	want := map[string]string{"a.txt": "hello\n", "bin/x.dat": "\x00\xff\x10", "real.base64": "hi"}
	if len(got) != len(want) {
		t.Fatalf("initial files %q, want %q", got, want)
	}
	for p, c := range want {
		if got[p] != c {
			t.Errorf("%s = %q, want %q", p, got[p], c)
		}
	}
	if sc.Fixture.File != "s.txtar" || len(sc.Lines) != 2 || sc.Lines[1].Args[1] != "completed" {
		t.Errorf("file %q, lines %+v", sc.Fixture.File, sc.Lines)
	}
}

func TestParseRefuses(t *testing.T) {
	cases := []struct{ name, archive, want string }{
		{"no scenario.json", "-- workspace/a --\nx\n", "has no scenario.json"},
		{"dotdot", "-- scenario.json --\n" + okDoc + "-- workspace/../x --\nx\n", `s.txtar:3: archive file "workspace/../x": ".." in the path`},
		{"absolute", "-- scenario.json --\n" + okDoc + "-- /etc/x --\nx\n", "absolute path"},
		{"dollar", "-- scenario.json --\n" + okDoc + "-- workspace/$WORK --\nx\n", `may not contain`},
		{"git", "-- scenario.json --\n" + okDoc + "-- workspace/sub/.GIT/hooks/pre-commit --\nx\n", "a path under .git"},
		{"stray", "-- scenario.json --\n" + okDoc + "-- notes.txt --\nx\n", `s.txtar:3: archive file "notes.txt" is neither scenario.json nor under workspace/`},
		{"duplicate", "-- scenario.json --\n" + okDoc + "-- workspace/a --\n-- workspace/a --\n", "duplicate archive file"},
		{"twice", "-- scenario.json --\n" + strings.Replace(okDoc, `"task": "t",`, `"task": "t", "initialFiles": [{"path": "a", "content": "x"}],`, 1) + "-- workspace/a --\ny\n", "also in scenario.json's initialFiles"},
		{"bad base64", "-- scenario.json --\n" + okDoc + "-- workspace/a.base64 --\n!!!\n", "is not base64"},
		{"not utf-8", "# \xff\n-- scenario.json --\n" + okDoc, "s.txtar:1: the scenario is not UTF-8"},
		{"unknown field", "-- scenario.json --\n" + strings.Replace(okDoc, `"task"`, `"tsak": 1, "task"`, 1), "$: "},
		{"exec", "exec rm -rf /\n-- scenario.json --\n" + okDoc, `s.txtar:1: unknown script command "exec"`},
		{"condition", "[linux] conform-run\n-- scenario.json --\n" + okDoc, "conditions"},
		{"background", "conform-run &\n-- scenario.json --\n" + okDoc, "background"},
		{"bad resume", "resume on=completed\n-- scenario.json --\n" + okDoc, "on= must be paused or failed"},
		{"bad file line", "file a b c d\n-- scenario.json --\n" + okDoc, "usage: file PATH"},
		{"file line under .git", "file .GIT/config contains x\n-- scenario.json --\n" + okDoc, `s.txtar:1: file: PATH ".GIT/config" paths under .git are not allowed`},
		{"file line out of the workspace", "file ../x\n-- scenario.json --\n" + okDoc, `s.txtar:1: file: PATH "../x" must not contain empty, '.' or '..' path segments`},
		{"file line with a carriage return before a comment", "file \r#\n-- scenario.json --\n" + okDoc, `s.txtar:1: file: usage: file PATH`},
		{"script variable", "status $STATUS\n-- scenario.json --\n" + okDoc, `s.txtar:1: a script word may not expand variables`},
		{"negated resume", "! resume\n-- scenario.json --\n" + okDoc, "cannot be negated"},
		{"fixture path rules", "-- scenario.json --\n" + okDoc + "-- workspace/x/git~1/config --\nx\n", `s.txtar:3: workspace file "x/git~1/config": paths under .git are not allowed`},
		{"workspace path rules", "-- scenario.json --\n" + okDoc + "-- workspace/a\\b --\nx\n", `may not contain`},
		{"workspace conflict", "-- scenario.json --\n" + strings.Replace(okDoc, `"task": "t",`, `"task": "t", "initialFiles": [{"path": "a", "content": "x"}],`, 1) + "-- workspace/a/b --\ny\n",
			`s.txtar:3: workspace file "a/b": cannot write 'a/b': its parent 'a' is a file (made by $.initialFiles[0].path)`},
		{"a second resume the script allows", "resume max=3\n-- scenario.json --\n" + strings.Replace(okDoc, `"task": "t",`, `"task": "t", "conform": {"entriesBeforeResume": [{"path": "l", "kind": "symlink", "target": "x"}]}, "runtime": {"resume": {"on": "paused", "mutateBeforeResume": [{"path": "l/y", "content": ""}]}},`, 1),
			`s.txtar: $.runtime.resume.mutateBeforeResume[0].path: cannot write 'l/y': its parent 'l' is a symlink`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := scenariofile.Parse("s.txtar", []byte(c.archive))
			var fe *fixture.Error
			if !errors.As(err, &fe) {
				t.Fatalf("err = %v, want a *fixture.Error", err)
			}
			if !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "s.txtar") {
				t.Errorf("err = %q, want it to name s.txtar and contain %q", err, c.want)
			}
		})
	}
}

func TestParseRefusesOversize(t *testing.T) {
	old := fixture.MaxFileSize
	fixture.MaxFileSize = 100
	defer func() { fixture.MaxFileSize = old }()
	_, err := scenariofile.Parse("s.txtar", []byte(strings.Repeat("#\n", 60)))
	if err == nil || !strings.Contains(err.Error(), "over the limit of 100 bytes") {
		t.Fatalf("err = %v", err)
	}
}

func TestImportRoundTrip(t *testing.T) {
	doc := `{"schemaVersion": 2, "name": "i", "task": "t <&>",
	  "initialFiles": [{"path": "a.txt", "content": "line\n"}, {"path": "b.txt", "content": "no newline"}, {"path": "c.txt", "content": "-- x --\n"}],
	  "rounds": [{"content": "done", "finishReason": "stop"}], "expected": {"errorCode": null}}`
	ar, err := scenariofile.Import("i.json", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	s := string(ar)
	if !strings.Contains(s, "-- workspace/a.txt --\nline\n") || strings.Contains(s, "workspace/b.txt") || strings.Contains(s, "workspace/c.txt") {
		t.Fatalf("import moved the wrong files:\n%s", s)
	}
	sc, err := scenariofile.Parse("i.txtar", ar)
	if err != nil {
		t.Fatal(err)
	}
	orig, err := fixture.Parse("i.json", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range sc.Fixture.InitialFiles {
		got[f.Path] = f.Content
	}
	for _, f := range orig.InitialFiles {
		if got[f.Path] != f.Content {
			t.Errorf("%s = %q, want %q", f.Path, got[f.Path], f.Content)
		}
	}
	if sc.Fixture.Task != orig.Task || sc.Fixture.RunID() != orig.RunID() || sc.Fixture.Expected.ErrorCode == nil || sc.Fixture.Expected.ErrorCode.Valid {
		t.Errorf("the imported fixture means something else: task %q, run %s, errorCode %+v", sc.Fixture.Task, sc.Fixture.RunID(), sc.Fixture.Expected.ErrorCode)
	}
}

func TestImportKeepsTheNameInTheComment(t *testing.T) {
	name := "evil\nexec rm -rf /\r\n-- workspace/x --\n\x1b]0;title\a"
	quoted, _ := json.Marshal(name)
	doc := fmt.Sprintf(`{"schemaVersion": 2, "name": %s, "task": "t", "rounds": [{"content": "done", "finishReason": "stop"}],
	  "initialFiles": [{"path": " spaced ", "content": "line\n"}]}`, quoted)
	ar, err := scenariofile.Import("x\ny.json", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenariofile.Parse("i.txtar", ar)
	if err != nil {
		t.Fatalf("the imported scenario does not load: %v\n%s", err, ar)
	}
	if len(sc.Lines) != 0 || sc.Fixture.Name != name || strings.ContainsAny(sc.Script, "\r\x1b\a") || strings.Count(sc.Script, "\n") != 2 {
		t.Fatalf("the name reached the script: lines %+v, script %q", sc.Lines, sc.Script)
	}
	if !strings.Contains(sc.Script, `"evil\nexec rm -rf /\r\n-- workspace/x --\n\x1b]0;title\a"`) || !strings.Contains(sc.Script, `"x\ny.json"`) {
		t.Errorf("the comment does not quote the name: %q", sc.Script)
	}
	if len(sc.Fixture.InitialFiles) != 1 || sc.Fixture.InitialFiles[0].Path != " spaced " {
		t.Errorf("a path with spaces around it changed: %+v", sc.Fixture.InitialFiles)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("conform-run\n-- scenario.json --\n" + okDoc + "-- workspace/a --\nx\n"))
	f.Add([]byte("-- workspace/../a --\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := scenariofile.Parse("f.txtar", data)
		if err != nil {
			var fe *fixture.Error
			if !errors.As(err, &fe) {
				t.Fatalf("error is not a *fixture.Error: %v", err)
			}
			return
		}
		for _, f := range sc.Fixture.InitialFiles {
			if strings.Contains(f.Path, "..") || strings.HasPrefix(f.Path, "/") || strings.Contains(strings.ToLower(f.Path), ".git/") {
				t.Fatalf("accepted path %q", f.Path)
			}
		}
	})
}
