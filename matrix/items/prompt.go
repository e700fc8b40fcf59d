package items

import (
	"github.com/galaxy-stack/conform/matrix"
)

var _ = matrix.PlanItem(matrix.Item{
	ID: 15, Name: "legacy-prompt-fields", Area: "prompt", Title: "legacy free-form prompt fields and unknown prompt keys are rejected",
	Scope: matrix.ScopeCore, Tools: nil, Guarantees: []string{"P1", "P2"},
	Contract: "hosts/wire/CONTRACTS.md#context-and-prompt", Guarantee: "A run request carrying systemPrompt, promptHash, promptVersion, workspaceInstructions or an unknown prompt key MUST be rejected before the first model request.",
})

var _ = matrix.PlanItem(matrix.Item{
	ID: 16, Name: "prompt-hash-changes", Area: "prompt", Title: "prompt hash changes on lazy registry activation and policy changes",
	Scope: matrix.ScopeCore, Tools: []string{"catalog.search"}, Guarantees: []string{"T3", "P4"},
	Contract: "hosts/wire/CONTRACTS.md#context-and-prompt", Guarantee: "The prompt hash MUST change when a lazy tool is activated or a policy declaration changes.",
})

var _ = matrix.PlanItem(matrix.Item{
	ID: 17, Name: "resume-prompt-mismatch", Area: "prompt", Title: "resume rejects prompt configuration different from the checkpoint",
	Scope: matrix.ScopeCore, Tools: nil, Guarantees: []string{"P1"},
	Contract: "hosts/wire/CONTRACTS.md#context-and-prompt", Guarantee: "Resume MUST be rejected when the prompt configuration differs from the checkpoint's.",
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
