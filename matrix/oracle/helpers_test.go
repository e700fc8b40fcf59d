package oracle_test

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/internal/wsfs"
	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/galaxy-stack/conform/matrix/oracle"
	"github.com/galaxy-stack/conform/matrix/snapshot"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// baseDoc declares every key of expected, each matching baseRun.
const baseDoc = `{
  "schemaVersion": 2,
  "name": "oracle base",
  "task": "Read a.txt and write src/b.txt.",
  "rounds": [
    {"toolCalls": [{"toolCallId": "c1", "toolName": "read_file", "arguments": {"path": "a.txt"}}], "finishReason": "tool_calls"},
    {"toolCalls": [{"toolCallId": "c2", "toolName": "write_file", "arguments": {"path": "src/b.txt", "content": "b\n"}}], "finishReason": "tool_calls"},
    {"content": "Done: wrote src/b.txt.", "finishReason": "stop"}
  ],
  "controls": [{"action": "pause", "event": "tool_result", "occurrence": 1}],
  "model": {"tokenCountSteps": [100, 200]},
  "expected": {
    "status": "completed",
    "errorCode": null,
    "executionStatuses": ["paused", "completed"],
    "toolSequence": ["read_file", "write_file"],
    "toolResults": [
      {"toolName": "read_file", "canonicalToolId": "workspace.read", "ok": true, "errorCode": null,
       "summaryIncludes": "read a.txt", "contentIncludes": ["\"path\":\"a.txt\""]},
      {"toolName": "write_file", "canonicalToolId": "workspace.write", "ok": true, "errorCode": null}
    ],
    "files": [
      {"path": "a.txt", "content": "a\n", "contentIncludes": ["a"], "unchanged": true},
      {"path": "src/b.txt", "contentIncludes": ["b"]},
      {"path": "gone.txt", "absent": true}
    ],
    "allowedChanges": ["src/b.txt", "src"],
    "finalResponseIncludes": ["wrote src/b.txt"],
    "finalResponseExcludes": ["error"],
    "checkpointReasons": ["pause"],
    "completionIssuesInclude": ["validation"],
    "contextPressures": ["normal", "tighten"],
    "modelRequestCount": 4,
    "retryDelaysMs": [0, 250],
    "allModelStepsConsumed": true,
    "minTraceEvents": 4,
    "traceKindsInclude": ["run_started", "run_completed"],
    "transitionsInclude": ["running->paused"]
  }
}`

// A run is one fixture with a workspace and the observation of a run in
// it that meets every assertion of baseDoc.
type run struct {
	fx   *fixture.Fixture
	obs  *oracle.Observed
	root *wsfs.Root
	dir  string
}

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256:" + hex.EncodeToString(sum[:])
}

func ptr[T any](v T) *T { return &v }

func write(dir, name, content string) {
	GinkgoHelper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	Expect(os.MkdirAll(filepath.Dir(p), 0o755)).To(Succeed())
	Expect(os.WriteFile(p, []byte(content), 0o644)).To(Succeed())
}

// baseRun arranges a workspace with a.txt, snapshots it, writes src/b.txt
// as the run would, and records an observation that passes baseDoc.
func baseRun() *run {
	GinkgoHelper()
	fx, err := fixture.Parse("fixtures/base.json", []byte(baseDoc))
	Expect(err).NotTo(HaveOccurred())
	dir := GinkgoT().TempDir()
	write(dir, "a.txt", "a\n")
	initial, err := snapshot.Take(dir)
	Expect(err).NotTo(HaveOccurred())
	write(dir, "src/b.txt", "b\n")
	final, err := snapshot.Take(dir)
	Expect(err).NotTo(HaveOccurred())
	root, err := wsfs.Open(dir)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(root.Close)
	r := &run{fx: fx, root: root, dir: dir}
	r.obs = &oracle.Observed{
		Status:            fixture.StatusCompleted,
		ExecutionStatuses: []string{"paused", "completed"},
		Checkpoints:       []oracle.Checkpoint{{Reason: "pause", ContentHash: sha("checkpoint")}},
		ContextPressures:  []string{"normal", "tighten"},
		RetryDelaysMs:     []int{0, 250},
		ModelRequestCount: 4,

		ModelRoundsConsumed:          3,
		ModelTokenCountStepsConsumed: 2,

		ToolSequence: []string{"read_file", "write_file"},
		ToolResults: []oracle.ToolResult{
			{ToolName: "read_file", CanonicalToolID: "workspace.read", OK: true,
				Summary: "read a.txt (2 bytes)", Content: `{"path":"a.txt","content":"a\n"}`},
			{ToolName: "write_file", CanonicalToolID: "workspace.write", OK: true,
				Summary: "wrote src/b.txt", Content: `{"path":"src/b.txt","created":true}`},
		},
		FinalResponse:        "Done: wrote src/b.txt.",
		CompletionRejections: [][]string{{"validation evidence is missing", "diff not reviewed"}},
		TraceKinds:           []string{"run_started", "tool_result", "tool_result", "run_completed"},
		Transitions:          []string{"created->running", "running->paused", "paused->running", "running->completed"},
		ControlsFired:        []bool{true},
		Writes: []port.Write{{Path: "src/b.txt", BeforeKind: "missing", AfterKind: "file",
			AfterHash: ptr(sha("b\n"))}},
		Initial: initial,
		Final:   final,
	}
	r.read()
	return r
}

// read refreshes the observed files for the fixture's expected.files, as a
// runner does after the last execution.
func (r *run) read() { r.obs.Files = oracle.ReadFiles(r.root, r.fx, 0) }

// retake refreshes the final snapshot and the observed files.
func (r *run) retake() {
	GinkgoHelper()
	final, err := snapshot.Take(r.dir)
	Expect(err).NotTo(HaveOccurred())
	r.obs.Final = final
	r.read()
}

// only returns a copy of e with every key but the named one unset.
func only(e *fixture.Expected, key string) *fixture.Expected {
	out := &fixture.Expected{}
	src, dst := reflectValue(e), reflectValue(out)
	i, ok := fieldIndex(key)
	Expect(ok).To(BeTrue(), "no expected key %q", key)
	dst.Field(i).Set(src.Field(i))
	return out
}

func portWrite(path, before, after string) port.Write {
	return port.Write{Path: path, BeforeKind: "file", BeforeHash: ptr(before), AfterKind: "file", AfterHash: ptr(after)}
}

// expectedKeys returns the JSON keys of fixture.Expected, in field order.
func expectedKeys() []string {
	t := reflect.TypeFor[fixture.Expected]()
	keys := make([]string, t.NumField())
	for i := range keys {
		keys[i], _, _ = strings.Cut(t.Field(i).Tag.Get("json"), ",")
	}
	return keys
}

func fieldIndex(key string) (int, bool) {
	for i, k := range expectedKeys() {
		if k == key {
			return i, true
		}
	}
	return 0, false
}

func reflectValue(e *fixture.Expected) reflect.Value { return reflect.ValueOf(e).Elem() }
