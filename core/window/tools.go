package window

import (
	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/clone"
	"github.com/galaxy-stack/conform/core/port"
)

// A toolsMemo is a copy of the last tool definitions an [Estimator] priced
// and the UTF-16 length of their JSON text. A run offers the same tools
// round after round and prices them twice a round (raw pressure and
// assembly); with the memo their JSON is written once while they stay the
// same. The price itself is computed every time, since calibration changes
// it. The copy is never changed or handed out.
type toolsMemo struct {
	copy  []port.ToolDefinition
	units int
	set   bool
}

// toolUnits returns the UTF-16 length of the JSON text of tools (nil
// normalized to []), or 0 when they do not encode.
func (e *Estimator) toolUnits(tools []port.ToolDefinition) int {
	if e.tools.set && toolsEqual(e.tools.copy, tools) {
		return e.tools.units
	}
	if tools == nil {
		tools = []port.ToolDefinition{}
	}
	text := jsonText(tools)
	if text == "" {
		return 0
	}
	units := canon.UTF16Len(text)
	if cp := cloneTools(tools); toolsEqual(cp, tools) {
		e.tools = toolsMemo{copy: cp, units: units, set: true}
	}
	return units
}

func cloneTools(ts []port.ToolDefinition) []port.ToolDefinition {
	out := make([]port.ToolDefinition, len(ts))
	for i, t := range ts {
		t.Function.Parameters = clone.Object(t.Function.Parameters)
		out[i] = t
	}
	return out
}

// toolsEqual reports whether a and b are equal field by field, as
// [reflect.DeepEqual] would say, with 0 and -0 apart; nil and empty lists
// are equal here, since the estimator writes both as []. The memo's copy,
// made by [clone.Object], holds only values that this compares exactly
// (JSON trees of maps, slices, strings, booleans, float64, json.Number and
// integers), so equal tools have equal JSON text.
func toolsEqual(a, b []port.ToolDefinition) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		fa, fb := a[i].Function, b[i].Function
		if a[i].Type != b[i].Type || fa.Name != fb.Name || fa.Description != fb.Description ||
			!clone.Equal(fa.Parameters, fb.Parameters) {
			return false
		}
	}
	return true
}
