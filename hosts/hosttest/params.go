package hosttest

import (
	"slices"

	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/hosts/wire"
)

// InitializeParams is the initialize request a test sends a host on
// workspace ws and store directory store: the host tool catalog and the
// core effect profile, mode auto, the balanced approval profile, best-effort
// containment and the host tool profile. A test changes what it needs.
func InitializeParams(ws, store string) wire.InitializeParams {
	return wire.InitializeParams{
		ProtocolVersion: wire.ProtocolVersion, WorkspaceRoot: ws, StoreDir: store,
		Catalog:       catalog.ForHost(),
		EffectProfile: wire.EffectProfile{Version: effects.ProfileVersion, Tools: effects.CoreProfile()},
		Mode:          "auto", ApprovalProfile: "balanced", Containment: wire.ContainmentBestEffort, ToolProfile: wire.ToolProfileHost,
	}
}

// ImpossibleOutput gives each tool of p's catalog named in ids an output
// schema no real output can satisfy: it requires a member "impossible"
// that no tool writes.
func ImpossibleOutput(p *wire.InitializeParams, ids ...string) {
	for i, d := range p.Catalog.Tools {
		if slices.Contains(ids, d.ID) {
			d.OutputSchema["required"] = append(d.OutputSchema["required"].([]any), "impossible")
			d.OutputSchema["properties"].(map[string]any)["impossible"] = map[string]any{"type": "string"}
			p.Catalog.Tools[i] = d
		}
	}
}
