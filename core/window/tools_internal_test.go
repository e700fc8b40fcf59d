package window

import (
	"math"
	"testing"

	"pgregory.net/rapid"

	"github.com/galaxy-stack/conform/core/port"
)

// drawTools returns the tools of the next pricing from those of the last:
// the same list, the list edited in place (a parameter changed, a number
// made -0, a nested list grown), a new equal list, another list, an empty
// list or none.
func drawTools(t *rapid.T, tools []port.ToolDefinition) []port.ToolDefinition {
	fresh := func(desc string) []port.ToolDefinition {
		return []port.ToolDefinition{{Type: "function", Function: port.FunctionSpec{Name: "probe", Description: desc,
			Parameters: map[string]any{"type": "object", "n": 0.0, "required": []any{"path"}}}}}
	}
	switch rapid.IntRange(0, 7).Draw(t, "tools") {
	case 0, 1:
		return tools
	case 2:
		if len(tools) > 0 {
			p := tools[0].Function.Parameters
			switch rapid.IntRange(0, 2).Draw(t, "edit") {
			case 0:
				p["n"] = math.Copysign(0, -1) // equal to 0, written -0
			case 1:
				p["required"] = append(p["required"].([]any), "more")
			default:
				p["type"] = "edited in place"
			}
		}
		return tools
	case 3:
		return fresh("probe a file")
	case 4:
		return append(fresh("ünïcode \U0001F600"), fresh("second")...)
	case 5:
		return []port.ToolDefinition{}
	case 6:
		if len(tools) > 0 {
			tools[0].Function.Description += "x" // edited in place through the caller's slice
		}
		return tools
	}
	return nil
}

// TestPropertyToolPricingMemo: over a run that prices tools edited in
// place, replaced and calibrated between calls, every price and the kinds
// it marks observed are those of an estimator with the same calibration
// and no memo, which writes the tools' JSON text every time.
func TestPropertyToolPricingMemo(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var e Estimator
		var tools []port.ToolDefinition
		for i := range rapid.IntRange(1, 12).Draw(t, "calls") {
			tools = drawTools(t, tools)
			if rapid.Bool().Draw(t, "calibrate") {
				e.Calibrate(KindJSON, 100, rapid.IntRange(1, 300).Draw(t, "actual"))
			}
			e.observed = [4]bool{}
			ref := Estimator{factor: e.factor}
			text := "[]"
			if len(tools) > 0 {
				text = jsonText(tools)
			}
			want := ref.TextAs(text, KindJSON)
			if got := e.ToolDefinitions(tools); got != want || e.observed != ref.observed {
				t.Fatalf("call %d: price %d (observed %v), want %d (%v) for %s", i, got, e.observed, want, ref.observed, text)
			}
		}
	})
}
