//go:build linux

package main

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/galaxy-stack/conform/reports"
)

// The secrets of TestRedactionBoundaries: the value of HOST_SECRET, which
// --host-env passes to the host, the value of a variable of conform's own
// whose name looks secret, and the token shapes the secret-echo zoo host
// adds (see zooSecrets). The host echoes them in its initialize name and
// version, in a tool result and on its standard error.
const (
	hostSecret = "hsv-4f9a1c2e8b7d"
	ownSecret  = "own-7e1d0c9b2a34"
)

// leaks are substrings of the secrets: none may appear in any output.
var leaks = []string{
	hostSecret, ownSecret,
	"ghp_abcdefghijklmnopqrstuvwxyz", // GitHub token (host name)
	"sk_live_abcdefghij",             // Stripe key (host version)
	"glpat-abcdefghij",               // GitLab token (tool result, stderr)
	"AKIAIOSFODNN7EXAMPLE",           // AWS access key ID
	"wJalrXUtnFEMI",                  // its secret access key
}

// An output is one place conform writes: its standard output or error, or
// the file a flag names.
type output struct {
	// name is "stdout", "stderr", the flag that names the file, or
	// FLAG/NAME for the file NAME in the directory the flag names.
	name string
	// carries is true when the secrets reach this output: it must then
	// show at least one placeholder, so that the test sees the secrets
	// arrive and go.
	carries bool
}

// A boundary is one conform command line and its outputs.
type boundary struct {
	// args are conform's arguments; FILE and DIR are replaced by a file
	// and a directory in the test's directory, HOST by the zoo host.
	args    []string
	outputs []output
	// valuesOnly is true for a command that redacts secret values and no
	// shape (its output is data): only the values are checked.
	valuesOnly bool
}

// redactionBoundaries lists every output conform writes what a host sent
// to, or what a result document from elsewhere holds. Each one is checked
// for the secrets; TestRedactionBoundaries also fails when run, certify or
// report has a file flag this list does not name, so a new output must be
// added here.
var redactionBoundaries = []boundary{
	{
		// The terminal lines of run: item lines, reasons, stderr tails.
		args:    []string{"run", "a.json", "--forbid-containment", "--host", "HOST", "--host-env", "HOST_SECRET"},
		outputs: []output{{"stdout", true}, {"stderr", false}},
	},
	{
		// run --json, the result document, its renderings, transcripts.
		args: []string{"run", "a.json", "--forbid-containment", "--host", "HOST", "--host-env", "HOST_SECRET", "--json",
			"--json-report", "FILE", "--junit-report", "FILE", "--md-report", "FILE", "--html-report", "FILE", "--transcript", "FILE",
			"--repro-dir", "DIR"},
		outputs: []output{{"stdout", true}, {"stderr", false}, {"--json-report", true}, {"--junit-report", true},
			{"--md-report", true}, {"--html-report", true}, {"--transcript", true},
			// run's repro carries the failed assertions, not the host's
			// standard error: checked for leaks, not for a placeholder.
			{"--repro-dir/a.txtar", false}},
	},
	{
		// The terminal lines of certify.
		args:    []string{"certify", "--only", "1", "--host", "HOST", "--host-env", "HOST_SECRET"},
		outputs: []output{{"stdout", true}, {"stderr", false}},
	},
	{
		// certify --json (the progress goes to stderr), the result
		// document and its renderings.
		args: []string{"certify", "--only", "1", "--host", "HOST", "--host-env", "HOST_SECRET", "--json",
			"--json-report", "FILE", "--junit-report", "FILE", "--md-report", "FILE", "--html-report", "FILE", "--certificate", "FILE",
			"--repro-dir", "DIR"},
		outputs: []output{{"stdout", true}, {"stderr", true}, {"--json-report", true}, {"--junit-report", true},
			{"--md-report", true}, {"--html-report", true}, {"--certificate", false},
			{"--repro-dir/1-read-only-inspect-inspect.txtar", true}},
	},
	{
		// report render of a document given by a stranger, to the
		// terminal and to files.
		args:    []string{"report", "render", "stranger.json"},
		outputs: []output{{"stdout", true}, {"stderr", false}},
	},
	{
		args:    []string{"report", "render", "stranger.json", "--junit-report", "FILE", "--md-report", "FILE", "--html-report", "FILE"},
		outputs: []output{{"stdout", false}, {"stderr", false}, {"--junit-report", true}, {"--md-report", true}, {"--html-report", true}},
	},
	{
		// report merge writes the documents it merges.
		args:    []string{"report", "merge", "stranger.json", "-o", "FILE", "--md-report", "FILE"},
		outputs: []output{{"stdout", false}, {"stderr", false}, {"-o", true}, {"--md-report", true}},
	},
	{
		// import writes scenarios, made to be shared, from fixtures that
		// hold a value of conform's secret environment.
		args:       []string{"import", "leaky.json", "-o", "DIR"},
		outputs:    []output{{"stdout", false}, {"stderr", false}, {"-o/leaky.txtar", true}},
		valuesOnly: true,
	},
}

// redactionFixture makes two tool calls: the host answers the first with
// the secrets in its result, and crashes at the second, leaving them on
// its standard error.
const redactionFixture = `{
  "schemaVersion": 2, "name": "a", "task": "List the workspace.",
  "rounds": [
    { "toolCalls": [{ "toolCallId": "l", "toolName": "list_files", "arguments": { "path": "." } }], "finishReason": "tool_calls" },
    { "toolCalls": [{ "toolCallId": "m", "toolName": "list_files", "arguments": { "path": "." } }], "finishReason": "tool_calls" },
    { "content": "The workspace is empty.", "finishReason": "stop" }
  ]
}`

// TestRedactionBoundaries runs conform against a host that echoes secrets
// everywhere it can, and renders a stranger's document full of them, and
// checks that no output of conform holds one.
func TestRedactionBoundaries(t *testing.T) {
	conform, err := exec.LookPath("conform")
	if err != nil {
		t.Skip("conform is not on PATH (TestMain puts it there)")
	}
	dir := t.TempDir()
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.json", redactionFixture)
	write("leaky.json", strings.Replace(redactionFixture, "List the workspace.", "List the workspace with the key "+ownSecret+".", 1))
	writeStrangerDocument(t, filepath.Join(dir, "stranger.json"))
	cache := t.TempDir()
	env := append(os.Environ(), "HOST_SECRET="+hostSecret, "CONFORM_TEST_API_TOKEN="+ownSecret, "CONFORM_CACHE_DIR="+cache, "NO_COLOR=1")

	for i, b := range redactionBoundaries {
		zoo := filepath.Join(dir, "zoo", string(rune('a'+i)))
		if err := os.MkdirAll(zoo, 0o755); err != nil {
			t.Fatal(err)
		}
		files := map[string]string{}
		var args []string
		for j, a := range b.args {
			switch a {
			case "HOST":
				a = "testhost zoo secret-echo " + zoo
			case "FILE", "DIR":
				a = filepath.Join(dir, "out", b.args[0]+string(rune('a'+i)), strings.TrimLeft(b.args[j-1], "-"))
				files[b.args[j-1]] = a
				if err := os.MkdirAll(filepath.Dir(a), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			args = append(args, a)
		}
		cmd := exec.Command(conform, args...)
		cmd.Dir, cmd.Env = dir, env
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		_ = cmd.Run() // run and certify fail: the host crashes
		name := "conform " + strings.Join(b.args, " ")
		for _, o := range b.outputs {
			var text string
			switch o.name {
			case "stdout":
				text = stdout.String()
			case "stderr":
				text = stderr.String()
			default:
				flagName, inDir, _ := strings.Cut(o.name, "/")
				f, ok := files[flagName]
				if !ok {
					t.Fatalf("%s: output %s names no FILE or DIR argument", name, o.name)
				}
				f = filepath.Join(f, inDir)
				data, err := os.ReadFile(f)
				if err != nil {
					t.Errorf("%s: %s was not written: %v", name, o.name, err)
					continue
				}
				text = string(data)
			}
			for _, l := range leaks {
				if b.valuesOnly && l != hostSecret && l != ownSecret {
					continue
				}
				if strings.Contains(text, l) {
					t.Errorf("%s: %s holds the secret %q:\n%s", name, o.name, l, excerpt(text, l))
				}
			}
			if o.carries && !strings.Contains(text, "[REDACTED:") {
				t.Errorf("%s: %s shows no placeholder: the secrets did not reach it, the boundary is not tested\n%s", name, o.name, text)
			}
		}
	}
	checkBoundariesListed(t)
}

// refusedFlags are file flags a command declares and refuses: report
// takes --json-report from the shared report flags and refuses it.
var refusedFlags = map[string][]string{"report": {"json-report"}}

// readFlags are FILE and DIR flags a command reads and never writes:
// certify's expectations file, run's campaign.
var readFlags = map[string][]string{"certify": {"expect", "durations"}, "run": {"campaign"}}

// checkBoundariesListed fails when run, certify, report or import has a
// flag naming a FILE or a DIR to write that no boundary lists.
func checkBoundariesListed(t *testing.T) {
	for _, name := range []string{"run", "certify", "report", "import"} {
		c := lookup(commands, name)
		fs := flag.NewFlagSet(name, flag.ContinueOnError)
		c.declare(fs)
		fs.VisitAll(func(f *flag.Flag) {
			placeholder, _ := flag.UnquoteUsage(f)
			if placeholder != "FILE" && placeholder != "DIR" || slices.Contains(refusedFlags[name], f.Name) || slices.Contains(readFlags[name], f.Name) {
				return
			}
			listed := false
			for _, b := range redactionBoundaries {
				if b.args[0] == name && slices.ContainsFunc(b.outputs, func(o output) bool {
					flagName, _, _ := strings.Cut(o.name, "/")
					return flagName == "-"+f.Name || flagName == "--"+f.Name
				}) {
					listed = true
				}
			}
			if !listed {
				t.Errorf("conform %s writes -%s %s, which redactionBoundaries does not check: add it", name, f.Name, placeholder)
			}
		})
	}
}

// writeStrangerDocument writes a result document, as another machine
// might have, that holds the secrets in its host identity and reasons.
func writeStrangerDocument(t *testing.T, path string) {
	d := &reports.Document{
		SchemaVersion: reports.SchemaVersion, Kind: reports.KindRun, Harness: reports.NewHarness(),
		Host: reports.Host{Command: "./host", Name: "host ghp_abcdefghijklmnopqrstuvwxyz0123456789", Version: "1.0+" + ownSecret},
		OS:   "linux", Arch: "amd64", MatrixVersion: "1",
		Items: []reports.Item{{Name: "a", Title: "a", Area: "run", Fixture: "a", File: "a.json", Status: reports.Failed,
			Reason: "stderr: key AKIAIOSFODNN7EXAMPLE wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY token glpat-abcdefghij0123456789 " + ownSecret,
			Repro:  "conform run a.json --host ./host"}},
	}
	d.Tally()
	if err := reports.WriteFile(path, d); err != nil {
		t.Fatal(err)
	}
}

// excerpt is the text around the first occurrence of s in text.
func excerpt(text, s string) string {
	i := strings.Index(text, s)
	from, to := max(i-200, 0), min(i+len(s)+200, len(text))
	return text[from:to]
}
