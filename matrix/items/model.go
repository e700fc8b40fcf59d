package items

import (
	"github.com/galaxy-stack/conform/matrix"
)

var _ = matrix.PlanItem(matrix.Item{
	ID: 25, Name: "overflow-compaction", Area: "model", Title: "provider overflow checkpoints, compacts, recounts, and continues",
	Scope: matrix.ScopeCore, Tools: nil, Guarantees: []string{"M2"},
	Contract: "hosts/wire/CONTRACTS.md#context-and-prompt", Guarantee: "A provider context overflow MUST checkpoint, compact, recount and continue.",
})

var _ = matrix.PlanItem(matrix.Item{
	ID: 26, Name: "persistent-overflow", Area: "model", Title: "persistent provider overflow fails with a resumable checkpoint",
	Scope: matrix.ScopeCore, Tools: nil, Guarantees: []string{"M2"},
	Contract: "hosts/wire/CONTRACTS.md#context-and-prompt", Guarantee: "Persistent provider overflow MUST fail with a resumable checkpoint.",
})

var _ = matrix.PlanItem(matrix.Item{
	ID: 36, Name: "repeated-compaction", Area: "model", Title: "repeated provider compaction preserves the task and accumulated evidence",
	Scope: matrix.ScopeCore, Tools: nil, Guarantees: []string{"M4"},
	Contract: "hosts/wire/CONTRACTS.md#context-and-prompt", Guarantee: "Repeated compaction MUST keep the original task and the accumulated write, validation and final-diff evidence.",
})

var _ = matrix.PlanItem(matrix.Item{
	ID: 38, Name: "oversized-tool-output", Area: "model", Title: "oversized accumulated tool output checkpoints before the next model request",
	Scope: matrix.ScopeCore, Tools: nil, Guarantees: nil,
	Contract: "hosts/wire/CONTRACTS.md#context-and-prompt", Guarantee: "Oversized accumulated tool output MUST checkpoint before the next request, keeping the task and checkpoint hash.",
})
