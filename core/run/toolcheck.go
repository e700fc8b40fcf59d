package run

import (
	"maps"
	"slices"

	"github.com/galaxy-stack/conform/core/port"
)

// A checkedToolSet is a copy of what [effects.CheckToolSet] reads of the
// last tool set it accepted: the definitions' names, the name-to-ID
// mapping and the effect policy. The controller fetches the tool set
// before every round and usually gets the same one back; a set that
// matches this copy would pass the check again, so it is not checked
// again.
type checkedToolSet struct {
	names  []string
	ids    map[string]string
	policy map[string][]string
}

// newCheckedToolSet copies what the check read of ts.
func newCheckedToolSet(ts port.ToolSet) *checkedToolSet {
	c := &checkedToolSet{names: make([]string, len(ts.Definitions)), ids: maps.Clone(ts.CanonicalToolIDs), policy: clonePolicy(ts.EffectCapabilities)}
	for i, d := range ts.Definitions {
		c.names[i] = d.Function.Name
	}
	return c
}

// same reports whether ts gives the check the input it accepted: the same
// definition names in the same order, both maps present and equal (a nil
// policy list and an empty one alike, as the check counts them). A nil
// receiver matches nothing.
func (c *checkedToolSet) same(ts port.ToolSet) bool {
	if c == nil || ts.CanonicalToolIDs == nil || ts.EffectCapabilities == nil || len(ts.Definitions) != len(c.names) {
		return false
	}
	for i, d := range ts.Definitions {
		if d.Function.Name != c.names[i] {
			return false
		}
	}
	return maps.Equal(ts.CanonicalToolIDs, c.ids) && maps.EqualFunc(ts.EffectCapabilities, c.policy, slices.Equal)
}
