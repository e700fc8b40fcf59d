package items

import (
	"path"

	"github.com/galaxy-stack/conform/matrix"
	"github.com/galaxy-stack/conform/matrix/kit"
	. "github.com/onsi/gomega"
)

// Item 15: the core refuses a run request with a legacy free-form prompt
// field or an unknown prompt key before the first model request, with its
// own message; the host's own prompt input (initialize promptInput) is one
// it accepts: structured fields only, nothing the core owns, and trusted
// instructions with provenance and no repository text.
var _ = matrix.DescribeItem(matrix.Item{
	ID: 15, Name: "legacy-prompt-fields", Area: "prompt", Title: "legacy free-form prompt fields and unknown prompt keys are rejected",
	Scope: matrix.ScopeBoth, Tools: nil, Guarantees: []string{"P1", "P2", "P3"},
	Contract: "hosts/wire/CONTRACTS.md#context-and-prompt", Guarantee: "A run request carrying systemPrompt, promptHash, promptVersion, workspaceInstructions or an unknown prompt key MUST be rejected before the first model request.",
}, func(c *kit.TestContext) {
	// conform adds the field to the run request; the fixture's
	// conform.expectRefusal holds the core's exact message. Catches
	// prompt-accept-legacy-fields and prompt-accept-unknown-keys.
	refused := kit.On("L15", nil)
	c.Scenarios(map[string]kit.Case{
		"legacy-system-prompt.json":          refused,
		"legacy-prompt-hash.json":            refused,
		"legacy-prompt-version.json":         refused,
		"legacy-workspace-instructions.json": refused,
		"unknown-prompt-key.json":            refused,
		// The run request holds the host's own prompt input: the core
		// refusing it fails the scenario with the core's message. Catches
		// the prompt-system-prompt, prompt-hash, prompt-version,
		// prompt-unknown-key, prompt-legacy-instructions and
		// prompt-invalid-declaration mutants.
		"host-prompt-fields.json": kit.On("P1 P2 L15", func(o *kit.Outcome) {
			o.NoCoreOwnedPromptFields()
			o.PromptFieldsOnly()
		}),
		// AGENTS.md in the workspace is repository text: catches
		// prompt-repository-as-trusted,
		// prompt-repository-in-host-instruction and (refused by the core)
		// prompt-instruction-without-provenance.
		"host-trusted-instructions.json": kit.On("P3", func(o *kit.Outcome) { o.TrustedInstructionsKeepProvenance() }),
	})
})

// Item 16: a lazy activation re-assembles the prompt with another prompt
// hash, and so does a changed policy declaration; the host's declarations
// are the policy it enforces.
var _ = matrix.DescribeItem(matrix.Item{
	ID: 16, Name: "prompt-hash-changes", Area: "prompt", Title: "prompt hash changes on lazy registry activation and policy changes",
	Scope: matrix.ScopeBoth, Tools: []string{"catalog.search", "workspace.write"}, Guarantees: []string{"T3", "P4"},
	Contract: "hosts/wire/CONTRACTS.md#context-and-prompt", Guarantee: "The prompt hash MUST change when a lazy tool is activated or a policy declaration changes.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		// search_tools activates a tool: the host's tool set answers
		// another snapshot hash and the core re-assembles the prompt.
		// Catches prompt-hash-ignores-registry.
		"lazy-activation.json": kit.On("T3 L16", func(o *kit.Outcome) { o.PromptHashMovedWithRegistry() }),
		// The pair the Go spec below compares.
		"policy-declared.json": kit.On("L16", nil),
		"policy-changed.json":  kit.On("L16", nil),
		// Catches declare-write-denied, declare-network-denied and
		// declare-other-approval.
		"declared-policy.json": kit.On("P4", func(o *kit.Outcome) { o.DeclarationsEnforced("16-write", "notes.txt") }),
	})
	// Catches prompt-hash-ignores-policy.
	c.It("a changed network and write declaration moves the prompt hash", "L16", func() {
		hashOf := func(name string) string {
			var h string
			c.RunScenario(path.Join(c.Dir, name), func(o *kit.Outcome) { h = o.PromptSnapshots()[0].PromptHash })
			return h
		}
		declared, changed := hashOf("policy-declared.json"), hashOf("policy-changed.json")
		Expect(changed).NotTo(Equal(declared), "the prompt hash stayed %s when networkAccess and writeAccess changed to policy_gated", declared)
	})
})

// Item 17: a resume under another prompt configuration than the
// checkpoint's fails CHECKPOINT_INCOMPATIBLE; a fresh host process that
// resumes the run declares the same policy, so its resume is compatible.
var _ = matrix.DescribeItem(matrix.Item{
	ID: 17, Name: "resume-prompt-mismatch", Area: "prompt", Title: "resume rejects prompt configuration different from the checkpoint",
	Scope: matrix.ScopeBoth, Tools: nil, Guarantees: []string{"P4"},
	Contract: "hosts/wire/CONTRACTS.md#context-and-prompt", Guarantee: "Resume MUST be rejected when the prompt configuration differs from the checkpoint's.",
}, func(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		// Catches resume-ignores-prompt-change and
		// prompt-hash-ignores-policy.
		"changed-policy-resume.json": kit.On("L17", func(o *kit.Outcome) { o.IncompatibleNaming("promptHash") }),
		// Catches declarations-per-process.
		"fresh-host-same-input.json": kit.On("P4 L17", nil),
	})
})

// Item 18: the model double's capability probe answers again before a
// fresh-host resume (conform.reprobeBeforeResume). M1 stays uncheckable
// through the protocol: the probe is conform's own double, not the host's
// (fixtures/matrix/18-probe-timestamp-resume/CHECKS.md).
var _ = matrix.DescribeItem(matrix.Item{
	ID: 18, Name: "probe-timestamp-resume", Area: "prompt", Title: "a fresh capability-probe timestamp does not invalidate compatible resume",
	Scope: matrix.ScopeCore, Tools: []string{"workspace.list", "workspace.read"}, Guarantees: nil,
	Contract: "hosts/wire/CONTRACTS.md#context-and-prompt", Guarantee: "Volatile capability-probe timestamps MUST NOT make an otherwise compatible resume fail.",
}, probeTimestampResume)
