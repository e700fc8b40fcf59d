package run_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/prompt"
	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/doubles/clock"
	"github.com/galaxy-stack/conform/doubles/model"
)

// memExecutor is the in-memory benchmark host: one tool, probe_file
// (canonical workspace.stat, no effect capabilities), answering every call
// at once with a fixed successful result and no effects.
type memExecutor struct{ set port.ToolSet }

func newMemExecutor() *memExecutor {
	return &memExecutor{set: port.ToolSet{
		Definitions: []port.ToolDefinition{{Type: "function", Function: port.FunctionSpec{Name: "probe_file", Description: "benchmark probe",
			Parameters: map[string]any{"type": "object"}}}},
		CanonicalToolIDs:   map[string]string{"probe_file": "workspace.stat"},
		EffectCapabilities: map[string][]string{"workspace.stat": {}},
		SnapshotHash:       "sha256:benchmark-tools",
	}}
}

func (e *memExecutor) ToolSet(context.Context) (port.ToolSet, error) { return e.set, nil }

func (e *memExecutor) Execute(_ context.Context, call port.ToolCall, _ port.ToolContext) (port.ToolResult, error) {
	return port.ToolResult{OK: true, CanonicalToolID: "workspace.stat", Content: `{"ok":true,"path":"` + call.Arguments["path"].(string) + `"}`,
		Summary: "probed", Trust: "workspace"}, nil
}

// benchRounds is rounds rounds of perRound calls to probe_file with
// distinct paths (no guard fires), then a final report.
func benchRounds(rounds, perRound int) []model.Round {
	out := make([]model.Round, 0, rounds+1)
	n := 0
	for range rounds {
		cs := make([]model.ToolCall, perRound)
		for i := range cs {
			cs[i] = model.ToolCall{ToolCallID: fmt.Sprintf("c-%d", n), ToolName: "probe_file", Arguments: map[string]any{"path": fmt.Sprintf("src/f%d.ts", n)}}
			n++
		}
		out = append(out, model.CallRound(cs...))
	}
	return append(out, model.TextRound("Probed every file."))
}

func benchRequest() run.Request {
	req := baseRequest("run-bench")
	no := false
	req.Completion = &prompt.Completion{RequireInspection: &no}
	req.Budget = &run.BudgetInput{MaxToolCalls: run.N(256), MaxTurns: run.N(48), MaxModelRetries: run.N(0)}
	return req
}

// benchmarkController runs whole scripted runs of rounds×perRound tool
// calls through the controller against memExecutor and reports the wall
// time per tool call (ns/call), model rounds, context preparation, guards
// and trace included.
func benchmarkController(b *testing.B, rounds, perRound int) {
	script := benchRounds(rounds, perRound)
	exec := newMemExecutor()
	calls := rounds * perRound
	b.ReportAllocs()
	for b.Loop() {
		deps := run.Deps{Model: model.NewScripted(script), Tools: exec, Clock: clock.NewFake(1_700_000_000_000), IDs: clock.NewIDs("")}
		res, err := run.Run(context.Background(), deps, benchRequest())
		if err != nil || res.Status != run.StatusCompleted || len(res.Calls) != calls {
			b.Fatalf("run ended %s %s: %s (%d calls, err %v)", res.Status, res.ErrorCode, res.ErrorMessage, len(res.Calls), err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*calls), "ns/call")
}

// BenchmarkControllerToolCallsBatched: 4 rounds of 50 calls each.
func BenchmarkControllerToolCallsBatched(b *testing.B) { benchmarkController(b, 4, 50) }

// BenchmarkControllerToolCallsOnePerRound: 40 rounds of one call each.
func BenchmarkControllerToolCallsOnePerRound(b *testing.B) { benchmarkController(b, 40, 1) }

// BenchmarkExecutorBaseline is the bare executor call the controller
// benchmarks wrap: memExecutor.Execute on the same calls, without the
// controller.
func BenchmarkExecutorBaseline(b *testing.B) {
	exec := newMemExecutor()
	call := port.ToolCall{ToolCallID: "c-0", Name: "probe_file", Arguments: map[string]any{"path": "src/f0.ts"}}
	tc := port.ToolContext{RunID: "run-bench", TaskID: "task-test", Mode: "auto", ToolCallID: "c-0", TimeoutMs: 30000}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := exec.Execute(context.Background(), call, tc); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/call")
}
