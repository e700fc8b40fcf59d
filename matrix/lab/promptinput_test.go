package lab

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/galaxy-stack/conform/core/prompt"
	"github.com/galaxy-stack/conform/core/run"
)

// stockRequest is a run request as the harness builds one, with one
// fixture instruction.
func stockRequest() run.Request {
	return run.Request{Request: prompt.Request{
		Goal: "Read README.md.", TaskID: "fixture:t", RunID: "run-1", WorkspaceRoot: "/w",
		Prompt: prompt.Configuration{ApprovalProfile: "balanced", Complexity: "simple", NetworkAccess: "allowed", WriteAccess: "allowed",
			TrustedWorkspaceInstructions: []prompt.TrustedInstruction{{Content: "Keep tests green.", Source: "fixture.workspaceInstructions[0]"}}},
	}}
}

func TestPromptRequestWithoutInputKeepsTheRequest(t *testing.T) {
	req := stockRequest()
	got, err := promptRequest(req, nil, nil, json.RawMessage{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Prompt.WriteAccess != "allowed" || len(got.Prompt.TrustedWorkspaceInstructions) != 1 {
		t.Errorf("a request without host input or members changed: %+v", got.Prompt)
	}
}

func TestPromptRequestLaysTheHostInputOverTheDefaults(t *testing.T) {
	in := json.RawMessage(`{"writeAccess":"denied","dirtyStateSummary":"2 files changed",
		"trustedWorkspaceInstructions":[{"content":"Use tabs.","source":"user settings"}]}`)
	got, err := promptRequest(stockRequest(), in)
	if err != nil {
		t.Fatal(err)
	}
	p := got.Prompt
	if p.WriteAccess != "denied" || p.NetworkAccess != "allowed" || p.ApprovalProfile != "balanced" {
		t.Errorf("the host's declaration did not replace the default, or a default was lost: %+v", p)
	}
	if p.DirtyStateSummary == nil || *p.DirtyStateSummary != "2 files changed" {
		t.Errorf("dirtyStateSummary = %v", p.DirtyStateSummary)
	}
	ins := p.TrustedWorkspaceInstructions
	if len(ins) != 2 || ins[0].Source != "user settings" || ins[1].Source != "fixture.workspaceInstructions[0]" {
		t.Errorf("the host's instructions come first, then the fixture's: %+v", ins)
	}
}

func TestPromptRequestRefusalsCarryTheCoresMessage(t *testing.T) {
	for _, tc := range []struct {
		name         string
		host, member string
		want         string
		byHost       bool
	}{
		{"host systemPrompt", `{"systemPrompt":"x"}`, "", "prompt contains unknown field systemPrompt.", true},
		{"host bad value", `{"networkAccess":"restricted"}`, "", "prompt.networkAccess is invalid.", true},
		{"host input with a duplicate key", `{"writeAccess":"allowed","writeAccess":"denied"}`, "", "reading the host's promptInput: canon: duplicate object key \"writeAccess\"", true},
		{"host instruction without source", `{"trustedWorkspaceInstructions":[{"content":"x","source":" "}]}`, "", "prompt.trustedWorkspaceInstructions is malformed.", true},
		{"legacy request field", `{"approvalProfile":"balanced"}`, `{"promptHash":"sha256:0"}`, "promptHash is no longer accepted; provide the structured prompt configuration.", false},
		{"unknown prompt member", "", `{"prompt":{"toolPolicy":{}}}`, "prompt contains unknown field toolPolicy.", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var host, member json.RawMessage
			if tc.host != "" {
				host = json.RawMessage(tc.host)
			}
			if tc.member != "" {
				member = json.RawMessage(tc.member)
			}
			_, err := promptRequest(stockRequest(), host, member)
			var r *Refusal
			if !errors.As(err, &r) {
				t.Fatalf("err = %v, want a refusal", err)
			}
			if r.Message != tc.want || r.ByHost != tc.byHost {
				t.Errorf("refusal = %+v, want %q (by host %v)", r, tc.want, tc.byHost)
			}
		})
	}
}

func TestJudgePromptInputAcceptsTheStructuredFields(t *testing.T) {
	if err := JudgePromptInput(json.RawMessage(`{"approvalProfile":"strict","networkAccess":"denied","writeAccess":"policy_gated","complexity":"complex"}`)); err != nil {
		t.Errorf("a valid prompt input was refused: %v", err)
	}
}
