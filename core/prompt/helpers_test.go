package prompt_test

import (
	"encoding/json"
	"errors"

	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/prompt"
)

// validRequest is a complete request that passes every rule; tests change
// one member at a time.
func validRequest() map[string]any {
	return map[string]any{
		"goal":          "Fix the parser and add regression coverage.",
		"taskId":        "task-123",
		"workspaceRoot": "/workspace/project",
		"mode":          "auto",
		"constraints":   []any{"Do not change the public wire format."},
		"acceptanceCriteria": []any{
			map[string]any{"id": "parser-regression", "text": "The reported parser case passes."},
		},
		"prompt": validPrompt(),
	}
}

func validPrompt() map[string]any {
	return map[string]any{
		"approvalProfile":   "balanced",
		"complexity":        "standard",
		"networkAccess":     "policy_gated",
		"writeAccess":       "allowed",
		"hostEnvironment":   validHost(),
		"dirtyStateSummary": "modified: src/parser.ts",
		"trustedWorkspaceInstructions": []any{
			map[string]any{"source": "AGENTS.md", "content": "Run the focused parser tests first.", "contentHash": "sha256:00"},
		},
	}
}

func validHost() map[string]any {
	return map[string]any{
		"operatingSystem": "linux",
		"architecture":    "x64",
		"command":         validCommand(),
	}
}

func validCommand() map[string]any {
	return map[string]any{
		"executable": "/bin/sh", "argumentsPrefix": []any{"-c"}, "commandMode": "shell_string",
		"shell": "sh", "pathStyle": "posix", "interactive": false, "stdin": "closed", "tty": false,
	}
}

// mustJSON marshals v for ParseRequest.
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	Expect(err).NotTo(HaveOccurred())
	return b
}

// parse parses a request map with run ID "run-1" as fallback.
func parse(req map[string]any) (prompt.Request, error) {
	return prompt.ParseRequest(mustJSON(req), "run-1")
}

// rejection returns the message of the *RequestError err, failing when err
// is anything else.
func rejection(err error) string {
	var re *prompt.RequestError
	ExpectWithOffset(1, errors.As(err, &re)).To(BeTrue(), "want a *RequestError, got %v", err)
	ExpectWithOffset(1, re.Kind).To(Equal(prompt.KindTypeError))
	return re.Message
}

// capabilities is a verified text, streaming and tool-calling model.
func capabilities() port.ModelCapabilities {
	window := 131072
	return port.ModelCapabilities{
		Evidence:            []port.CapabilityEvidence{{ObservedAt: "2026-08-28T00:00:00.000Z", Source: port.EvidenceRuntimeProbe, Verified: true}},
		Identity:            port.ModelIdentity{BaseURL: "https://provider.invalid", Model: "coding-model", Provider: "test"},
		Input:               port.InputCapabilities{Audio: "unsupported", Image: "unsupported", Text: "supported", Video: "unsupported"},
		Output:              port.OutputCapabilities{Image: "unsupported", Text: "supported"},
		ParallelToolCalling: "supported", PreserveThinking: "supported", Streaming: "supported",
		StructuredOutput: "supported", Thinking: "optional", TokenCounting: "supported", ToolCalling: "supported",
		ContextWindow: &window,
	}
}

func str(s string) *string { return &s }
