package window_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/window"
)

// benchTools is a tool list of the size of the active catalog.
func benchTools() []port.ToolDefinition {
	defs := make([]port.ToolDefinition, 13)
	for i := range defs {
		defs[i] = port.ToolDefinition{Type: "function", Function: port.FunctionSpec{Name: fmt.Sprintf("tool_%d", i),
			Description: strings.Repeat("Reads part of the workspace. ", 8),
			Parameters:  map[string]any{"type": "object", "properties": map[string]any{"path": map[string]any{"type": "string"}}}}}
	}
	return defs
}

func BenchmarkAddInteraction(b *testing.B) {
	m, _ := window.New(window.Config{Profile: window.Balanced, ContextWindow: 128_000, SystemPrompt: "p", GoalMessage: "g"})
	out := strings.Repeat(`{"path":"src/a.go","content":"package a"}`, 20)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		c := port.ToolCall{ToolCallID: fmt.Sprintf("c%d", i), Name: "read_file", Arguments: map[string]any{"path": "src/a.go"}}
		m.AddInteraction(port.Message{Role: "assistant", ToolCalls: []port.ToolCall{c}},
			[]window.Observation{{Call: c, Content: out, Kind: window.ItemFile, Trust: window.Workspace}}, 1)
	}
}

func BenchmarkPrepare(b *testing.B) {
	m, _ := window.New(window.Config{Profile: window.Balanced, ContextWindow: 128_000, SystemPrompt: strings.Repeat("policy ", 2000), GoalMessage: "g"})
	for i := range 20 {
		c := port.ToolCall{ToolCallID: fmt.Sprintf("c%d", i), Name: "read_file", Arguments: map[string]any{"path": "src/a.go"}}
		m.AddInteraction(port.Message{Role: "assistant", ToolCalls: []port.ToolCall{c}},
			[]window.Observation{{Call: c, Content: fmt.Sprintf("content %d", i), Kind: window.ItemTool, Trust: window.Workspace}}, i)
	}
	tools := benchTools()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.Prepare(window.PrepareInput{Tools: tools, Turn: 21}); err != nil {
			b.Fatal(err)
		}
	}
}
