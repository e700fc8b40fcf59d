package reference

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/port"
)

// promptInput is the host's structured prompt configuration for the
// initialize answer (CONTRACTS §9.1): the declarations of the policy this
// session enforces, and nothing the core owns. The approval profile is the
// one initialize set; writes are denied in the task modes whose tool set
// holds no write (review_only, validate_only); network access is denied
// only when command containment denies it and no tool of the session may
// reach the network. The host resolves no trusted workspace instructions:
// it has no source of them, and repository text stays untrusted.
func (s *session) promptInput() json.RawMessage {
	in := map[string]any{
		"approvalProfile": s.params.ApprovalProfile,
		"networkAccess":   s.networkAccess(),
		"writeAccess":     "allowed",
	}
	if m := s.params.Mode; m == port.ModeReviewOnly || m == port.ModeValidateOnly {
		in["writeAccess"] = "denied"
	}
	if s.h.opts.Choices.HostInstructions {
		in["dirtyStateSummary"] = "Workspace opened by the host; no uncommitted state recorded."
		in["trustedWorkspaceInstructions"] = []map[string]any{{"content": "Prefer small, reviewable changes.", "source": "host settings: conform-reference instructions"}}
	}
	s.breakPromptInput(in)
	raw, err := json.Marshal(in)
	if err != nil {
		return nil
	}
	return raw
}

// networkAccess is "denied" when neither commands nor any tool of the
// session can reach the network, else "allowed".
func (s *session) networkAccess() string {
	if s.runner == nil || s.runner.Containment().Network != "denied" {
		return "allowed"
	}
	if slices.Contains(s.permissions(), catalog.PermNetworkOutbound) {
		return "allowed"
	}
	return "denied"
}

// breakPromptInput applies the prompt-input faults to in.
func (s *session) breakPromptInput(in map[string]any) {
	f := s.faults.Prompt
	if f.SystemPrompt {
		in["systemPrompt"] = "You are a careful coding agent. Follow the repository's rules."
	}
	if f.PromptHash {
		in["promptHash"] = "sha256:0000000000000000000000000000000000000000000000000000000000000000"
	}
	if f.PromptVersion {
		in["promptVersion"] = "host-1"
	}
	if f.UnknownKey {
		in["toolPolicy"] = map[string]any{"allowShell": true}
	}
	if f.LegacyInstructions {
		in["workspaceInstructions"] = []string{"Keep changes small."}
	}
	if f.InvalidDeclaration {
		in["networkAccess"] = "restricted"
	}
	var trusted []map[string]any
	if f.RepositoryAsTrusted {
		if text := s.repositoryInstructions(); text != "" {
			trusted = append(trusted, map[string]any{"content": text, "source": repositoryInstructionFile})
		}
	}
	if f.RepositoryInHostInstruction {
		if text := s.repositoryInstructions(); text != "" {
			trusted = append(trusted, map[string]any{"content": "Project rules:\n" + text, "source": "host settings"})
		}
	}
	if f.InstructionWithoutProvenance {
		trusted = append(trusted, map[string]any{"content": "Run the tests before finishing.", "source": " "})
	}
	if trusted != nil {
		in["trustedWorkspaceInstructions"] = trusted
	}
	if f.DeclareWriteDenied {
		in["writeAccess"] = "denied"
	}
	if f.DeclareNetworkDenied {
		in["networkAccess"] = "denied"
	}
	if f.DeclareOtherApproval {
		in["approvalProfile"] = "strict"
		if s.params.ApprovalProfile == "strict" {
			in["approvalProfile"] = "trusted-workspace"
		}
	}
	if f.DeclarationsPerProcess && s.storeHeld {
		in["writeAccess"] = "policy_gated"
	}
}

// repositoryInstructionFile is the repository file a careless host reads
// as its instructions.
const repositoryInstructionFile = "AGENTS.md"

// repositoryInstructions is the text of the workspace's AGENTS.md, "" when
// there is none.
func (s *session) repositoryInstructions() string {
	b, err := os.ReadFile(filepath.Join(s.root.Dir(), repositoryInstructionFile))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// storeHeldRun reports whether the store directory dir holds anything: a
// process opening it then continues a run an earlier process began.
func storeHeldRun(dir string) bool {
	entries, err := os.ReadDir(dir)
	return err == nil && len(entries) > 0
}
