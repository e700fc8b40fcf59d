package replay_test

import (
	"testing"

	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/matrix/lab"
	"github.com/galaxy-stack/conform/matrix/oracle"
	"github.com/galaxy-stack/conform/matrix/replay"
	"github.com/galaxy-stack/conform/matrix/snapshot"
)

const (
	hashA = "sha256:aaaa000000000000000000000000000000000000000000000000000000000000"
	hashB = "sha256:bbbb000000000000000000000000000000000000000000000000000000000000"
)

// mutation is a report of one write_file call with a matches_sha256
// precondition of want on path, rejected with code, on a workspace whose
// initial snapshot holds a.txt with hashA.
func mutation(path, want, code string) *lab.Report {
	call := &port.ToolCall{ToolCallID: "w", Name: "write_file", Arguments: map[string]any{
		"path": path, "content": "x", "precondition": map[string]any{"kind": "matches_sha256", "contentSha256": want[len("sha256:"):]},
	}}
	res := &port.ToolResult{CanonicalToolID: "workspace.write", Error: &port.ToolError{Code: code}}
	return &lab.Report{Fixture: "f", RunID: "r",
		Observed: &oracle.Observed{Initial: snapshot.Snapshot{{Path: "a.txt", Kind: effects.KindFile, Hash: hashA}}},
		Transcript: []lab.Entry{
			{Event: &run.Event{Type: run.EventToolStart, Call: call}},
			{Event: &run.Event{Type: run.EventToolResult, Call: call, Result: res}},
		}}
}

func resultCode(t *testing.T, tr *replay.Transcript) string {
	t.Helper()
	for _, e := range tr.Events {
		if e.Result != nil {
			return e.Result.ErrorCode
		}
	}
	t.Fatal("no tool_result in the transcript")
	return ""
}

// TestCheckOrderNormalization: the code of a rejected mutation whose
// precondition is stale is the class of the two codes a host may choose
// between; a fresh precondition or a missing target keeps the host's code.
func TestCheckOrderNormalization(t *testing.T) {
	for _, c := range []struct {
		name, path, want, code, recorded string
	}{
		{"stale, INVALID_INPUT", "a.txt", hashB, "INVALID_INPUT", replay.CheckOrderCode},
		{"stale, PRECONDITION_FAILED", "a.txt", hashB, "PRECONDITION_FAILED", replay.CheckOrderCode},
		{"fresh, INVALID_INPUT is pinned", "a.txt", hashA, "INVALID_INPUT", "INVALID_INPUT"},
		{"fresh, PRECONDITION_FAILED is pinned", "a.txt", hashA, "PRECONDITION_FAILED", "PRECONDITION_FAILED"},
		{"missing target", "b.txt", hashB, "PRECONDITION_FAILED", "PRECONDITION_FAILED"},
		{"another code", "a.txt", hashB, "CONFLICT", "CONFLICT"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := resultCode(t, replay.Build(mutation(c.path, c.want, c.code))); got != c.recorded {
				t.Errorf("recorded %q, want %q", got, c.recorded)
			}
		})
	}
	a, _ := replay.Build(mutation("a.txt", hashB, "INVALID_INPUT")).Hash()
	b, _ := replay.Build(mutation("a.txt", hashB, "PRECONDITION_FAILED")).Hash()
	if a != b {
		t.Errorf("the two permitted answers hash differently: %s, %s", a, b)
	}
}
