package checkpoint

import (
	"github.com/galaxy-stack/conform/core/port"

	"github.com/galaxy-stack/conform/core/prompt"
)

// A Checkpoint is the durable, provider-neutral run state of CONTRACTS §11:
// the payload plus the content hash, creation time and reason. Raw model
// thinking and raw tool output are never part of it. JSON names are exact.
//
// Required arrays must be non-nil to serialize as [] (a nil one serializes
// as null and fails validation); [Create] normalizes them. Optional members
// are pointers or use omitzero so that "absent" and "present but empty"
// stay distinct.
type Checkpoint struct {
	Payload
	ContentHash string `json:"contentHash"`
	CreatedAt   string `json:"createdAt"`
	Reason      Reason `json:"reason"`
}

// Payload is everything a checkpoint records except its content hash,
// creation time and reason (CONTRACTS §11.2).
type Payload struct {
	AcceptanceCriteria []Criterion        `json:"acceptanceCriteria"`
	Approvals          []string           `json:"approvals"`
	Compatibility      Compatibility      `json:"compatibility"`
	CompletionEvidence CompletionEvidence `json:"completionEvidence"`
	Constraints        []string           `json:"constraints"`
	Decisions          []string           `json:"decisions"`
	Delivery           Delivery           `json:"delivery"`
	Edits              []Edit             `json:"edits"`
	ExecutionBudget    ExecutionBudget    `json:"executionBudget"`
	Goal               string             `json:"goal"`
	LastToolCalls      []ToolCallRecord   `json:"lastToolCalls"`
	NextAction         string             `json:"nextAction"`
	NoProgress         *NoProgress        `json:"noProgress,omitempty"`
	OpenProblems       []string           `json:"openProblems"`
	PendingApprovals   []PendingApproval  `json:"pendingApprovals"`
	Phase              Phase              `json:"phase"`
	Plan               Plan               `json:"plan"`
	ResearchSources    []ResearchSource   `json:"researchSources,omitzero"`
	RunID              string             `json:"runId"`
	SchemaVersion      int                `json:"schemaVersion"`
	SeenToolCallIDs    []string           `json:"seenToolCallIds"`
	TaskID             string             `json:"taskId"`
	TokenLedgerRef     string             `json:"tokenLedgerRef"`
	Totals             Totals             `json:"totals"`
	Validation         []ValidationRecord `json:"validation"`
	Workspace          Workspace          `json:"workspace"`
}

// Criterion is one acceptance criterion; a satisfied one names at least one
// evidence tool-call ID.
type Criterion struct {
	EvidenceIDs []string        `json:"evidenceIds"`
	ID          string          `json:"id"`
	Required    bool            `json:"required"`
	Status      CriterionStatus `json:"status"`
	Text        string          `json:"text"`
}

// Compatibility holds the values a resume must match exactly (CONTRACTS
// §9.8, RUNTIME §21.4): the prompt-side values core/prompt computes
// ([prompt.Integrity]) and the names of the active tools.
type Compatibility struct {
	prompt.Integrity
	ActiveToolNames []string `json:"activeToolNames"`
}

// CompletionEvidence holds the reviewed diff, or nil (JSON null).
type CompletionEvidence struct {
	DiffReview *DiffReview `json:"diffReview"`
}

// DiffReview is evidence of a reviewed diff.
type DiffReview struct {
	DiffHash             string `json:"diffHash"`
	Sequence             int64  `json:"sequence"`
	WorkspaceFingerprint string `json:"workspaceFingerprint"`
}

// Delivery records whether attachments reached the model.
type Delivery struct {
	AttachmentsDelivered bool `json:"attachmentsDelivered"`
}

// Edit is typed mutation evidence for one path (CONTRACTS §7.6): nil hashes
// are JSON null; kinds are either both absent (legacy file-only form) or
// both present.
type Edit struct {
	AfterHash            *string   `json:"afterHash"`
	AfterKind            EntryKind `json:"afterKind,omitempty"`
	BeforeHash           *string   `json:"beforeHash"`
	BeforeKind           EntryKind `json:"beforeKind,omitempty"`
	Path                 string    `json:"path"`
	Sequence             int64     `json:"sequence"`
	ToolCallID           string    `json:"toolCallId"`
	WorkspaceFingerprint string    `json:"workspaceFingerprint"`
}

// ExecutionBudget records the deadline policy of the run.
type ExecutionBudget struct {
	DeadlinePolicy     string `json:"deadlinePolicy"`
	PersistenceGraceMs int64  `json:"persistenceGraceMs"`
	SegmentDeadlineMs  int64  `json:"segmentDeadlineMs"`
}

// ToolCallRecord is one entry of lastToolCalls. ArgumentDigest and
// IdempotencyKey are optional; empty means absent.
type ToolCallRecord struct {
	ArgumentDigest string      `json:"argumentDigest,omitempty"`
	ArgumentsHash  string      `json:"argumentsHash"`
	IdempotencyKey string      `json:"idempotencyKey,omitempty"`
	Name           string      `json:"name"`
	Outcome        ToolOutcome `json:"outcome"`
	ToolCallID     string      `json:"toolCallId"`
}

// NoProgress is the no-progress guard state. Optional lists are nil when
// absent; Policy is empty when absent.
type NoProgress struct {
	Episodes                   int64              `json:"episodes"`
	FailedToolFamilies         []FamilyCount      `json:"failedToolFamilies"`
	HostStateVersions          []HostStateVersion `json:"hostStateVersions,omitzero"`
	ObservationNudgeThresholds []int64            `json:"observationNudgeThresholds,omitzero"`
	ObservationFamilies        []FamilyCount      `json:"observationFamilies,omitzero"`
	Policy                     NoProgressPolicy   `json:"policy,omitempty"`
	PreviousTool               *PreviousTool      `json:"previousTool"`
	ToolCycleSuffix            []CycleEntry       `json:"toolCycleSuffix,omitzero"`
}

// FamilyCount counts one failed-tool or observation family.
type FamilyCount struct {
	Count int64  `json:"count"`
	Key   string `json:"key"`
}

// HostStateVersion is the last host state version seen for one key.
type HostStateVersion struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// PreviousTool is the last call for the identical-repeat guard.
type PreviousTool struct {
	ArgumentsHash string `json:"argumentsHash"`
	Name          string `json:"name"`
	Repetitions   int64  `json:"repetitions"`
}

// CycleEntry is one entry of the tool-cycle suffix.
type CycleEntry struct {
	ArgumentsHash string `json:"argumentsHash"`
	Name          string `json:"name"`
}

// PendingApproval is an approval request the run waits for.
type PendingApproval struct {
	RequestID   string `json:"requestId"`
	ReturnPhase Phase  `json:"returnPhase"`
	ToolCallID  string `json:"toolCallId"`
	ToolName    string `json:"toolName"`
}

// Plan is the plan in three buckets; InProgress nil is JSON null.
type Plan struct {
	Completed  []string `json:"completed"`
	InProgress *string  `json:"inProgress"`
	Pending    []string `json:"pending"`
}

// ResearchSource is bounded, host-attested research evidence. ContentHash
// nil is JSON null (a fetch needs one); Title nil is absent.
type ResearchSource struct {
	ContentHash *string      `json:"contentHash"`
	Kind        ResearchKind `json:"kind"`
	Sequence    int64        `json:"sequence"`
	Summary     string       `json:"summary"`
	Title       *string      `json:"title,omitempty"`
	ToolCallID  string       `json:"toolCallId"`
	Truncated   bool         `json:"truncated"`
	URL         string       `json:"url"`
}

// Totals counts compactions, model turns and tool calls.
type Totals struct {
	CompactionCount int64 `json:"compactionCount"`
	ModelTurns      int64 `json:"modelTurns"`
	ToolCalls       int64 `json:"toolCalls"`
}

// ValidationRecord is one validation outcome. Command empty means absent;
// Paths nil means absent.
type ValidationRecord struct {
	Command              string           `json:"command,omitempty"`
	Detail               string           `json:"detail"`
	ID                   string           `json:"id"`
	Paths                []string         `json:"paths,omitzero"`
	Scope                ValidationScope  `json:"scope"`
	Sequence             int64            `json:"sequence"`
	Status               ValidationStatus `json:"status"`
	WorkspaceFingerprint string           `json:"workspaceFingerprint"`
}

// Workspace is the workspace state of the checkpoint. Root,
// DirtyStateSummary and StateFingerprint nil are JSON null.
type Workspace struct {
	ActiveFiles       []ActiveFileRecord `json:"activeFiles"`
	DirtyStateSummary *string            `json:"dirtyStateSummary"`
	Instructions      []string           `json:"instructions"`
	Root              *string            `json:"root"`
	StateFingerprint  *string            `json:"stateFingerprint"`
}

// An ActiveFileRecord is one inspected or written entry: the file as the
// workspace fingerprint binds it ([port.ActiveFile]: path, kind, content
// hash) with the lines and the reason the checkpoint keeps beside it. Kind
// and Reason empty and the lines nil mean absent; ContentHash nil is JSON
// null.
type ActiveFileRecord struct {
	port.ActiveFile
	EndLine   *int64 `json:"endLine,omitempty"`
	Reason    string `json:"reason,omitempty"`
	StartLine *int64 `json:"startLine,omitempty"`
}
