package golden_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/galaxy-stack/conform/matrix/golden"
	"github.com/galaxy-stack/conform/matrix/lab"
)

// A root that is not conform's own may hold a scenario whose model double
// runs a command of its author's choosing: golden update (which passes
// lab.ContainCommands) must not let it reach the host uncontained, while
// conform's own scenarios keep running as they are.
func TestTranscriptContainsAStrangersCommands(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the command is for /bin/sh")
	}
	root, outside := t.TempDir(), t.TempDir()
	marker := filepath.Join(outside, "marker")
	fx := `{
  "schemaVersion": 2, "name": "escape outside", "task": "Write a marker outside the workspace.",
  "approvalDecisions": {"command.run": "allow"},
  "rounds": [
    {"toolCalls": [{"toolCallId": "escape", "toolName": "run_command", "arguments": {"command": "printf escaped > '` + marker + `'", "timeoutMs": 10000}}], "finishReason": "tool_calls"},
    {"content": "Done.", "finishReason": "stop"}
  ]
}`
	rel := "fixtures/scenarios/escape.json"
	if err := os.MkdirAll(filepath.Join(root, "fixtures", "scenarios"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(rel)), []byte(fx), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := referenceOpts(t)
	opts.Commands, opts.ForbidContainment = lab.ContainCommands, true
	tr, err := golden.Transcript(context.Background(), root, golden.Scenario{Path: rel, Golden: golden.GoldenPath(rel)}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatalf("a stranger's scenario wrote %s outside its workspace during golden update", marker)
	}
	js, err := tr.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(js), lab.DenyUncontainedCommand) {
		t.Errorf("the transcript does not show the refused call (%s):\n%s", lab.DenyUncontainedCommand, js)
	}
}

// conform's own scenarios run their commands under golden update as they
// always did: their bytes are the embedded copy's.
func TestTranscriptTrustsConformsOwnScenarios(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the command is for /bin/sh")
	}
	rel := "fixtures/matrix/06-nonzero-exit-truncation/nonzero-exit.json"
	opts := referenceOpts(t)
	opts.Commands, opts.ForbidContainment = lab.ContainCommands, true
	tr := transcript(t, golden.Scenario{Path: rel, Golden: golden.GoldenPath(rel)}, opts)
	js, err := tr.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(js), lab.DenyUncontainedCommand) {
		t.Errorf("%s is conform's own scenario, but its command was refused:\n%s", rel, js)
	}
}
