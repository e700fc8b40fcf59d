package model

import (
	"github.com/galaxy-stack/conform/core/clone"
	"github.com/galaxy-stack/conform/core/port"
)

// A toolsMemo is the double's copy of the last tool list it received and
// the length of that list's compact JSON. A controller offers the same
// tools round after round, and counts each round's request before sending
// it; with the memo the list is copied and encoded once while it stays the
// same instead of twice a round. The copy is never changed or handed out,
// so records share it.
type toolsMemo struct {
	copy []port.ToolDefinition
	size int
	set  bool
}

// tools returns the double's copy of ts, the length of the compact JSON of
// ts and that of the copy (-1 when it does not encode). A list equal field
// by field to the memo's copy is answered from the memo; any other list is
// copied and measured, and becomes the memo when its copy is equal to it
// and it encodes.
func (c *messageCache) tools(ts []port.ToolDefinition) (copied []port.ToolDefinition, size, copySize int) {
	if c.lastTools.set && toolsEqual(c.lastTools.copy, ts) {
		return c.lastTools.copy, c.lastTools.size, c.lastTools.size
	}
	copied, size = cloneTools(ts), jsonSize(ts)
	if size < 0 || !toolsEqual(copied, ts) {
		return copied, size, jsonSize(copied)
	}
	c.lastTools = toolsMemo{copy: copied, size: size, set: true}
	return copied, size, size
}

// toolsEqual reports whether a and b are equal field by field, as
// [reflect.DeepEqual] would say (a nil list differs from an empty one: they
// encode differently).
func toolsEqual(a, b []port.ToolDefinition) bool {
	if len(a) != len(b) || (a == nil) != (b == nil) {
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
