package reference

import (
	"context"
	"fmt"
	"slices"

	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/wire"
)

// toolSet answers tools/list: the active definitions, the routing of
// model names to canonical IDs, the effect capabilities built from the
// active descriptors by the core's own function (never copied into the
// host), and the registry's active hash.
func (s *session) toolSet(ctx context.Context, _ struct{}) (port.ToolSet, error) {
	active := s.registry.ActiveDescriptors()
	meta, err := effects.NewMetadata(effects.RefsOf(active))
	if err != nil {
		return port.ToolSet{}, err
	}
	defs := s.registry.Definitions()
	if defs == nil {
		defs = []port.ToolDefinition{}
	}
	ts := port.ToolSet{
		Definitions:        defs,
		CanonicalToolIDs:   meta.CanonicalToolIDs,
		EffectCapabilities: meta.EffectCapabilities,
		SnapshotHash:       s.registry.ActiveHash(),
	}
	s.listFormatTool(&ts)
	s.metadataFaults(&ts)
	if s.faults.CopiedEffectProfile {
		copied := map[string][]string{}
		for id, caps := range ts.EffectCapabilities {
			copied[id] = caps
			if id == "workspace.write" {
				copied[id] = slices.DeleteFunc(slices.Clone(caps), func(c string) bool { return c == "state_version" })
			}
		}
		ts.EffectCapabilities = copied
	}
	return ts, nil
}

// restore answers tools/restore (LAB §20.1): it re-activates each named
// tool and requires the resulting active hash to equal the checkpoint's.
func (s *session) restore(ctx context.Context, p wire.RestoreParams) (port.ToolSet, error) {
	for _, name := range p.Names {
		d, ok := s.registry.Snapshot(), false
		for _, x := range d.Descriptors {
			if x.ModelName == name {
				ok = true
			}
		}
		if !ok {
			return port.ToolSet{}, wire.PortFailure(&port.Error{Code: port.CodeConflict,
				Message: fmt.Sprintf("Checkpoint references unavailable tool '%s'.", name)})
		}
	}
	if err := s.registry.Restore(p.Names, p.SnapshotHash); err != nil && !s.faults.RestoreIgnoresSnapshotHash {
		return port.ToolSet{}, wire.PortFailure(&port.Error{Code: port.CodeConflict,
			Message: "Checkpoint tool snapshot mismatch: " + err.Error()})
	}
	return s.toolSet(ctx, struct{}{})
}
