package lab

import (
	"encoding/json"

	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/doubles/model"
)

// An Audit is the structural record of one checkpoint (LAB §3.10
// checkpointAudits): what it says about the run, without the values that
// bind the machine. The replay transcript carries it as it is.
type Audit struct {
	Reason          string   `json:"reason"`
	CompactionCount int64    `json:"compactionCount"`
	ModelTurns      int64    `json:"modelTurns"`
	ToolCalls       int64    `json:"toolCalls"`
	EditPaths       []string `json:"editPaths"`
	ValidationIDs   []string `json:"validationIds"`
	DiffReviewed    bool     `json:"diffReviewed"`
	ActiveToolNames []string `json:"activeToolNames"`
}

// AuditOf is the structural audit of cp; its slices are never nil.
func AuditOf(cp *checkpoint.Checkpoint) Audit {
	a := Audit{
		Reason: string(cp.Reason), CompactionCount: cp.Totals.CompactionCount, ModelTurns: cp.Totals.ModelTurns,
		ToolCalls: cp.Totals.ToolCalls, DiffReviewed: cp.CompletionEvidence.DiffReview != nil,
		ActiveToolNames: append([]string{}, cp.Compatibility.ActiveToolNames...), EditPaths: []string{}, ValidationIDs: []string{},
	}
	for _, e := range cp.Edits {
		a.EditPaths = append(a.EditPaths, e.Path)
	}
	for _, v := range cp.Validation {
		a.ValidationIDs = append(a.ValidationIDs, v.ID)
	}
	return a
}

// A CheckpointAudit is the audit of one persisted checkpoint, with its
// content hash (kept here, left out of the replay transcript).
type CheckpointAudit struct {
	Audit
	// ContentHash is the checkpoint's content hash; it covers the absolute
	// workspace root and differs between isolated runs.
	ContentHash string `json:"contentHash"`
	// Unreadable is set when the stored document is not a checkpoint the
	// audit can read; the other fields are then empty.
	Unreadable string `json:"unreadable,omitempty"`
}

// auditCheckpoint reads the audit of one stored checkpoint document.
func auditCheckpoint(doc []byte) CheckpointAudit {
	var cp checkpoint.Checkpoint
	if err := json.Unmarshal(doc, &cp); err != nil {
		return CheckpointAudit{Audit: Audit{EditPaths: []string{}, ValidationIDs: []string{}, ActiveToolNames: []string{}}, Unreadable: err.Error()}
	}
	return CheckpointAudit{Audit: AuditOf(&cp), ContentHash: cp.ContentHash}
}

// ModelContextAudit is what the scripted model was shown (LAB §3.10
// modelContextAudit): whether every request carried the task, and which
// saved checkpoint hashes, in save order, appeared in some request.
type ModelContextAudit = model.ContextAudit
