package prompt

import (
	"fmt"
	"strings"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/port"
)

// Options are the inputs of [Assemble] (CONTRACTS §9.4): the host's
// configuration plus what the core knows when it assembles — the verified
// model capabilities, the task mode, the active registry hash, the task ID
// and the workspace path the model sees (the run controller passes "."; a
// nil WorkspacePath shows as null).
type Options struct {
	Config               Configuration
	Capabilities         port.ModelCapabilities
	Mode                 string
	RegistrySnapshotHash string
	TaskID               string
	WorkspacePath        *string
}

// A Module is one assembled prompt module (CONTRACTS §9.4).
type Module struct {
	Content         string `json:"content"`
	EstimatedTokens int    `json:"estimatedTokens"`
	ID              string `json:"id"`
	Kind            string `json:"kind"`
	Priority        int    `json:"priority"`
	Version         string `json:"version"`
}

// A Snapshot is an assembled system prompt (CONTRACTS §9.4,
// AiCoderPromptSnapshot). ModuleVersions maps module id to version in
// final module order. The run uses SystemPrompt as the P0 system message
// and records PromptHash and PromptVersion in checkpoints and traces.
type Snapshot struct {
	EstimatedTokens       int          `json:"estimatedTokens"`
	ModuleVersions        canon.Object `json:"moduleVersions"`
	Modules               []Module     `json:"modules"`
	PromptHash            string       `json:"promptHash"`
	PromptVersion         string       `json:"promptVersion"`
	StaticEstimatedTokens int          `json:"staticEstimatedTokens"`
	SystemPrompt          string       `json:"systemPrompt"`
}

// WorkspaceRoot is the workspace path the run controller shows the model.
func WorkspaceRoot() *string {
	root := "."
	return &root
}

// Assemble builds the system prompt (CONTRACTS §9.5–§9.6): the modules of
// [Modules] in final order, each estimated with [EstimateTokens], joined by
// a blank line, and hashed with [PromptHash]. An unknown mode counts as
// "auto" and an unknown complexity as "standard". It fails when a static
// module exceeds its budget or the static modules together exceed
// [StaticTokenBudget]. Assemble does not check the command environment;
// call [CheckCommandEnvironment] first.
func Assemble(o Options) (Snapshot, error) {
	mode := o.Mode
	if !contains(modes, mode) {
		mode = port.ModeAuto
	}
	complexity := o.Config.Complexity
	if !contains(complexities, complexity) {
		complexity = ComplexityStandard
	}
	profile := o.Config.Profile()
	var snap Snapshot
	var parts []string
	for _, spec := range Modules() {
		var text string
		switch spec.ID {
		case "workspace-scope":
			text = scopeText(o, mode, complexity)
		case "trusted-workspace-instructions":
			text = instructionsText(o.Config.TrustedWorkspaceInstructions)
		case "workspace-state":
			text = stateText(o.Config.DirtyStateSummary)
		case "task-mode":
			text = taskModeText(mode, complexity)
		case "model-capabilities":
			text = capabilitiesText(o.Capabilities)
		default:
			text = staticText(spec.ID, profile)
		}
		m := Module{Content: text, EstimatedTokens: EstimateTokens(text), ID: spec.ID, Kind: spec.Kind, Priority: spec.Priority, Version: spec.Version}
		if m.Kind == KindStatic {
			if m.EstimatedTokens > spec.Budget {
				return Snapshot{}, fmt.Errorf("prompt: static module %q estimates %d tokens, over its budget of %d", m.ID, m.EstimatedTokens, spec.Budget)
			}
			snap.StaticEstimatedTokens += m.EstimatedTokens
		}
		snap.EstimatedTokens += m.EstimatedTokens
		snap.Modules = append(snap.Modules, m)
		snap.ModuleVersions = append(snap.ModuleVersions, canon.Member{Key: m.ID, Value: m.Version})
		parts = append(parts, text)
	}
	if snap.StaticEstimatedTokens > StaticTokenBudget {
		return Snapshot{}, fmt.Errorf("prompt: static modules estimate %d tokens, over the budget of %d", snap.StaticEstimatedTokens, StaticTokenBudget)
	}
	snap.SystemPrompt = strings.Join(parts, "\n\n")
	snap.PromptVersion = Version
	snap.PromptHash = PromptHash(snap.ModuleVersions, Version, snap.SystemPrompt)
	return snap, nil
}

// PromptHash is conform's prompt hash (CONTRACTS §9.6, DECISIONS 32):
// SHA-256 over the RFC 8785 form of {moduleVersions, promptVersion,
// systemPrompt}, written "sha256:<hex>".
func PromptHash(moduleVersions canon.Object, promptVersion, systemPrompt string) string {
	h, err := canon.Hash(map[string]any{"moduleVersions": moduleVersions, "promptVersion": promptVersion, "systemPrompt": systemPrompt})
	if err != nil {
		panic("prompt: hash prompt: " + err.Error())
	}
	return h
}
