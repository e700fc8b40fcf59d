package checkpoint

import (
	"github.com/galaxy-stack/conform/core/port"

	"github.com/galaxy-stack/conform/core/prompt"
)

// minimalPayload is a small valid payload with one seen tool call.
func minimalPayload() Payload {
	root := "/home/dev/project"
	return Payload{
		AcceptanceCriteria: []Criterion{},
		Approvals:          []string{},
		Compatibility: Compatibility{ActiveToolNames: []string{"read_file"}, Integrity: prompt.Integrity{CapabilitiesHash: "sha256:c",
			EffectCapabilitiesHash: "sha256:e", ModelIdentity: "model", PromptHash: "sha256:p", PromptVersion: "v1",
			RegistrySnapshotHash: "sha256:r", SystemPromptHash: "sha256:s", TaskContractHash: "sha256:t"}},
		Constraints:      []string{},
		Decisions:        []string{},
		Edits:            []Edit{},
		ExecutionBudget:  ExecutionBudget{DeadlinePolicy: DeadlinePerExecutionSegment, PersistenceGraceMs: 1000, SegmentDeadlineMs: 60000},
		Goal:             "fix the bug",
		LastToolCalls:    []ToolCallRecord{{ArgumentsHash: "sha256:a", Name: "read_file", Outcome: OutcomeSucceeded, ToolCallID: "call-1"}},
		NextAction:       "run the tests",
		OpenProblems:     []string{},
		PendingApprovals: []PendingApproval{},
		Phase:            PhaseExecuting,
		Plan:             Plan{Completed: []string{}, Pending: []string{}},
		RunID:            "run-1",
		SchemaVersion:    SchemaVersion,
		SeenToolCallIDs:  []string{"call-1"},
		TaskID:           "task-1",
		TokenLedgerRef:   "ledger://run-1",
		Totals:           Totals{ToolCalls: 1, ModelTurns: 1},
		Validation:       []ValidationRecord{},
		Workspace:        Workspace{ActiveFiles: []ActiveFileRecord{}, Instructions: []string{}, Root: &root},
	}
}

// fullPayload is a valid payload where every list has an element and every
// optional member is present, so that rule specs can break any field.
func fullPayload() Payload {
	p := minimalPayload()
	s := func(v string) *string { return &v }
	n := func(v int64) *int64 { return &v }
	p.SeenToolCallIDs = []string{"call-1", "call-2"}
	p.Totals = Totals{CompactionCount: 1, ModelTurns: 3, ToolCalls: 2}
	p.AcceptanceCriteria = []Criterion{{EvidenceIDs: []string{"call-2"}, ID: "c1", Required: true, Status: CriterionSatisfied, Text: "tests pass"}}
	p.Approvals = []string{"approved write"}
	p.Constraints = []string{"no network"}
	p.Decisions = []string{"use a map"}
	p.OpenProblems = []string{"flaky test"}
	p.CompletionEvidence.DiffReview = &DiffReview{DiffHash: "sha256:d", Sequence: 2, WorkspaceFingerprint: "fp-2"}
	p.Edits = []Edit{{AfterHash: s("sha256:after"), AfterKind: KindFile, BeforeHash: nil, BeforeKind: KindMissing,
		Path: "a.go", Sequence: 1, ToolCallID: "call-1", WorkspaceFingerprint: "fp-1"}}
	p.LastToolCalls = []ToolCallRecord{{ArgumentDigest: `{"path":"a.go"}`, ArgumentsHash: "sha256:a", IdempotencyKey: "run-1:call-2:sha256:a",
		Name: "write_file", Outcome: OutcomeSucceeded, ToolCallID: "call-2"}}
	p.NoProgress = &NoProgress{Episodes: 1, FailedToolFamilies: []FamilyCount{{Count: 1, Key: "edit:a.go"}},
		HostStateVersions: []HostStateVersion{{Key: "task.checkpoint", Value: "v1"}}, ObservationNudgeThresholds: []int64{3, 5},
		ObservationFamilies: []FamilyCount{{Count: 2, Key: "read:a.go"}}, Policy: PolicyStrict,
		PreviousTool:    &PreviousTool{ArgumentsHash: "sha256:a", Name: "read_file", Repetitions: 1},
		ToolCycleSuffix: []CycleEntry{{ArgumentsHash: "sha256:a", Name: "read_file"}}}
	p.PendingApprovals = []PendingApproval{{RequestID: "req-1", ReturnPhase: PhaseExecuting, ToolCallID: "call-2", ToolName: "write_file"}}
	p.Plan = Plan{Completed: []string{"inspect"}, InProgress: s("edit"), Pending: []string{"test"}}
	p.ResearchSources = []ResearchSource{{ContentHash: s("sha256:page"), Kind: ResearchFetch, Sequence: 2, Summary: "docs say so",
		Title: s("Docs"), ToolCallID: "call-2", Truncated: false, URL: "https://example.com/docs"}}
	p.Validation = []ValidationRecord{{Command: "go test ./...", Detail: "ok", ID: "project.validate:test:.", Paths: []string{"a.go"},
		Scope: ScopePaths, Sequence: 2, Status: ValidationPassed, WorkspaceFingerprint: "fp-2"}}
	p.Workspace.ActiveFiles = []ActiveFileRecord{{ActiveFile: port.ActiveFile{ContentHash: s("sha256:after"), Kind: string(KindFile), Path: "a.go"}, EndLine: n(9), Reason: "edited", StartLine: n(1)}}
	p.Workspace.DirtyStateSummary = s("1 file changed")
	p.Workspace.Instructions = []string{"follow AGENTS.md"}
	p.Workspace.StateFingerprint = s("fp-2")
	return p
}
