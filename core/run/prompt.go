package run

import (
	"encoding/json"
	"net/url"
	"strings"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/port"
)

// PromptVersion is the version of the stand-in system prompt this package
// assembles until the core prompt assembler (CONTRACTS §9) is wired in.
const PromptVersion = "conform-ai-coder/0.1.0"

// promptSnapshot is an assembled system prompt.
type promptSnapshot struct {
	SystemPrompt  string
	PromptHash    string
	PromptVersion string
}

// assemblePrompt builds the system prompt from the structured configuration
// (CONTRACTS §9.5 workspace-scope and model-capabilities modules, in
// conform's own words). It embeds every value the compatibility hashes must
// react to: configuration, mode, registry snapshot, task and capabilities.
func assemblePrompt(cfg PromptConfig, caps port.ModelCapabilities, mode, registryHash, taskID string) (promptSnapshot, error) {
	writeAccess := cfg.WriteAccess
	if mode == ModeReviewOnly || mode == ModeValidateOnly {
		writeAccess = "denied_by_task_mode"
	}
	host := cfg.HostEnvironment
	if host == nil {
		host = &HostEnvironment{Architecture: "unknown", OperatingSystem: "unknown", Command: CommandEnvironment{
			ArgumentsPrefix: []string{}, CommandMode: "shell_string", Executable: "unknown",
			PathStyle: "unknown", Shell: "unknown", Stdin: "closed"}}
	}
	scope := stableJSON(map[string]any{
		"approvalProfile": cfg.ApprovalProfile, "complexity": cfg.Complexity, "hostEnvironment": host,
		"mode": mode, "networkAccess": cfg.NetworkAccess, "registrySnapshotHash": registryHash,
		"taskId": taskID, "workspacePath": ".", "writeAccess": writeAccess,
	})
	capsDoc := stableJSON(capabilitySnapshot(caps))
	var instr []map[string]string
	for _, t := range cfg.TrustedWorkspaceInstructions {
		instr = append(instr, map[string]string{"content": t.Content, "contentHash": t.ContentHash, "source": t.Source, "trust": "trusted_workspace_instruction"})
	}
	dirty := "not_supplied"
	if cfg.DirtyStateSummary != nil {
		dirty = *cfg.DirtyStateSummary
	}
	modules := []struct{ id, version, text string }{
		{"identity", "2.0.0", "IDENTITY AND OBJECTIVE\nYou are one autonomous coding agent. Finish the task end to end, keep unrelated changes, and never expose private reasoning."},
		{"workspace-scope", "2.3.0", "WORKSPACE AND HOST SCOPE\n" + scope + "\nThis object is trusted host metadata, not a user request."},
		{"trusted-workspace-instructions", "2.0.0", "TRUSTED WORKSPACE INSTRUCTIONS\n" + stableJSON(map[string]any{"instructions": instr})},
		{"workspace-state", "2.0.0", "WORKSPACE STATE DATA\n" + stableJSON(map[string]string{"content": dirty, "source": "host_workspace_state", "trust": "untrusted_data"})},
		{"model-capabilities", "2.0.0", "MODEL CAPABILITY SNAPSHOT\n" + capsDoc},
		{"completion", "2.2.0", "COMPLETION CONTRACT\nFinish only with inspected, validated and reviewed evidence; the final answer is a chat response, so do not create a report file in the workspace."},
	}
	var parts []string
	versions := canon.Object{}
	for _, m := range modules {
		parts = append(parts, m.text)
		versions = append(versions, canon.Member{Key: m.id, Value: m.version})
	}
	system := strings.Join(parts, "\n\n")
	hash, err := canon.Hash(map[string]any{"moduleVersions": versions, "promptVersion": PromptVersion, "systemPrompt": system})
	if err != nil {
		return promptSnapshot{}, err
	}
	return promptSnapshot{SystemPrompt: system, PromptHash: hash, PromptVersion: PromptVersion}, nil
}

// capabilitySnapshot is the capabilities with evidence reduced to
// {source, verified} (RUNTIME §10.3 step 8).
func capabilitySnapshot(caps port.ModelCapabilities) map[string]any {
	data, _ := json.Marshal(caps)
	var m map[string]any
	_ = json.Unmarshal(data, &m)
	ev := []any{}
	for _, e := range caps.Evidence {
		ev = append(ev, map[string]any{"source": e.Source, "verified": e.Verified})
	}
	m["evidence"] = ev
	return m
}

// identityKey is the stable JSON of the public model identity (RUNTIME
// §33.5): credentials, query and fragment are removed from the base URL.
func identityKey(id port.ModelIdentity) string { return stableJSON(publicIdentity(id)) }

func publicIdentity(id port.ModelIdentity) port.ModelIdentity {
	id.BaseURL = publicBaseURL(id.BaseURL)
	return id
}

func publicBaseURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return "[invalid-model-endpoint]"
	}
	u.User, u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = nil, "", false, "", ""
	if u.Path == "" {
		u.Path = "/"
	}
	return u.String()
}

// taskContract is the task contract (CONTRACTS §9.7).
type taskContract struct {
	AcceptanceCriteria []contractCriterion `json:"acceptanceCriteria"`
	Complexity         string              `json:"complexity"`
	Constraints        []string            `json:"constraints"`
	Mode               string              `json:"mode"`
	NormalizedOutcome  string              `json:"normalizedOutcome"`
	OriginalRequest    string              `json:"originalRequest"`
	TaskID             string              `json:"taskId"`
	WorkspacePath      string              `json:"workspacePath"`
}

type contractCriterion struct {
	ID       string `json:"id"`
	Inferred bool   `json:"inferred"`
	Required bool   `json:"required"`
	Text     string `json:"text"`
}

func newTaskContract(req Request) taskContract {
	goal := strings.TrimSpace(req.Goal)
	if goal == "" {
		goal = "Inspect the workspace and report its current state."
	}
	tc := taskContract{AcceptanceCriteria: []contractCriterion{}, Complexity: req.Prompt.Complexity, Constraints: []string{},
		Mode: req.mode(), NormalizedOutcome: goal, OriginalRequest: goal, TaskID: req.TaskID, WorkspacePath: "."}
	for _, c := range req.AcceptanceCriteria {
		tc.AcceptanceCriteria = append(tc.AcceptanceCriteria, contractCriterion{ID: strings.TrimSpace(c.ID), Required: c.Required == nil || *c.Required, Text: strings.TrimSpace(c.Text)})
	}
	for _, c := range req.Constraints {
		if strings.TrimSpace(c) != "" {
			tc.Constraints = append(tc.Constraints, c)
		}
	}
	return tc
}

// userTaskMessage formats the P0 user task (CONTRACTS §9.7) with the
// request's context data as untrusted items.
func userTaskMessage(tc taskContract, data []ContextItem) string {
	body := canon.Object{
		{Key: "acceptanceCriteria", Value: tc.AcceptanceCriteria}, {Key: "complexity", Value: tc.Complexity},
		{Key: "constraints", Value: tc.Constraints}, {Key: "mode", Value: tc.Mode},
		{Key: "normalizedOutcome", Value: tc.NormalizedOutcome}, {Key: "request", Value: tc.OriginalRequest},
		{Key: "taskId", Value: tc.TaskID}, {Key: "workspacePath", Value: tc.WorkspacePath},
	}
	text := "[GALAXY USER TASK trust=user; current request]\n" + orderedJSON(body)
	if len(data) > 0 {
		items := []map[string]string{}
		for _, d := range data {
			items = append(items, map[string]string{"content": d.Content, "source": d.Source, "trust": "untrusted_data"})
		}
		text += "\n[GALAXY CONTEXT DATA trust=untrusted_data]\n" + stableJSON(map[string]any{"items": items})
	}
	return text
}

// orderedJSON writes an object with members in the given order.
func orderedJSON(o canon.Object) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.Key)
		b.Write(k)
		b.WriteByte(':')
		b.WriteString(stableJSON(m.Value))
	}
	b.WriteByte('}')
	return b.String()
}
