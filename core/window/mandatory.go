package window

import (
	"fmt"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/checkpoint"
)

// Mandatory-state limits and texts (RUNTIME §28).
const (
	StateEditedFilesMax   = 200
	StateOpenProblemsMax  = 8
	StateOpenProblemChars = 1_000
	// FinalizationNextAction replaces the next action in finalization mode.
	FinalizationNextAction = "Return the user-facing final report without requesting tools or further work."
	// FinalizingPhase replaces the state name in finalization mode.
	FinalizingPhase = "finalizing"
)

// StateInput is the run state the mandatory state document is built from.
// Record-valued fields (criteria, writes, plan) are the controller's own
// JSON-serializable records, written as given.
type StateInput struct {
	AcceptanceCriteria any
	Approvals          []string
	Decisions          []string
	// Writes are all write records in order; the last 200 are shown.
	Writes           []any
	MaxTurns         int
	ModelTurns       int
	MaxToolCalls     int
	ToolCalls        int
	Finalizing       bool
	NextAction       string
	OpenProblems     []string
	State            string
	PendingApprovals []StatePendingApproval
	Plan             any
	ResearchSources  []StateResearchSource
	Validation       []StateValidation
	WorkspaceRoot    string
}

// StatePendingApproval is one pending approval, in registration order.
type StatePendingApproval struct {
	RequestID  string `json:"requestId"`
	ToolCallID string `json:"toolCallId"`
	ToolName   string `json:"toolName"`
}

// StateResearchSource is one research source as the document shows it.
type StateResearchSource struct {
	ContentHash *string `json:"contentHash"`
	Kind        string  `json:"kind"`
	Summary     string  `json:"summary"`
	Title       *string `json:"title,omitempty"`
	Truncated   bool    `json:"truncated"`
	URL         string  `json:"url"`
}

// StateValidation is one validation record as the document shows it;
// nil paths are written as [].
type StateValidation struct {
	ID       string   `json:"id"`
	Paths    []string `json:"paths"`
	Sequence int      `json:"sequence"`
	Status   string   `json:"status"`
}

// executionBudget is the document's remaining-budget record.
type executionBudget struct {
	RemainingModelTurns int `json:"remainingModelTurns"`
	RemainingToolCalls  int `json:"remainingToolCalls"`
	TotalModelTurns     int `json:"totalModelTurns"`
	TotalToolCalls      int `json:"totalToolCalls"`
}

// stateDocument is the RUNTIME §28 document. Its members are written in
// canonical order, so the canonical encoding reorders nothing; a struct
// rather than a map spares encoding/json sorting the keys every round.
type stateDocument struct {
	AcceptanceCriteria any                    `json:"acceptanceCriteria"`
	Approvals          []string               `json:"approvals"`
	Decisions          []string               `json:"decisions"`
	EditedFiles        []any                  `json:"editedFiles"`
	EditedFilesTotal   int                    `json:"editedFilesTotal"`
	ExecutionBudget    executionBudget        `json:"executionBudget"`
	NextAction         string                 `json:"nextAction"`
	OpenProblems       []string               `json:"openProblems"`
	PendingApprovals   []StatePendingApproval `json:"pendingApprovals"`
	Phase              string                 `json:"phase"`
	Plan               any                    `json:"plan"`
	ResearchSources    []StateResearchSource  `json:"researchSources"`
	Validation         []StateValidation      `json:"validation"`
	WorkspaceRoot      string                 `json:"workspaceRoot"`
}

// MandatoryState returns the RUNTIME §28 document as stable (canonical)
// JSON: the current evidence, the last 200 writes and their total, the
// remaining budget, the next action (the finalization text in finalization
// mode), the last 8 open problems redacted and cut to 1000 UTF-16 units,
// the phase ("finalizing" in finalization mode, else the state), pending
// approvals, plan, research sources, validations and the workspace root.
// [Manager.ReplaceMandatoryState] places it in the context every turn.
func MandatoryState(in StateInput) (string, error) {
	b, err := canon.Marshal(stateDocumentOf(in))
	if err != nil {
		return "", fmt.Errorf("window: mandatory state: %w", err)
	}
	return string(b), nil
}

// stateDocumentOf builds the document [MandatoryState] writes.
func stateDocumentOf(in StateInput) stateDocument {
	writes := in.Writes
	if len(writes) > StateEditedFilesMax {
		writes = writes[len(writes)-StateEditedFilesMax:]
	}
	problems := in.OpenProblems
	if len(problems) > StateOpenProblemsMax {
		problems = problems[len(problems)-StateOpenProblemsMax:]
	}
	shown := make([]string, len(problems))
	for i, p := range problems {
		shown[i] = canon.CutUTF16(checkpoint.Redact(p), StateOpenProblemChars)
	}
	validation := make([]StateValidation, len(in.Validation))
	for i, v := range in.Validation {
		if v.Paths == nil {
			v.Paths = []string{}
		}
		validation[i] = v
	}
	next, phase := in.NextAction, in.State
	if in.Finalizing {
		next, phase = FinalizationNextAction, FinalizingPhase
	}
	return stateDocument{
		AcceptanceCriteria: orEmpty(in.AcceptanceCriteria),
		Approvals:          nonNil(in.Approvals),
		Decisions:          nonNil(in.Decisions),
		EditedFiles:        nonNil(writes),
		EditedFilesTotal:   len(in.Writes),
		ExecutionBudget: executionBudget{RemainingModelTurns: max(0, in.MaxTurns-in.ModelTurns),
			RemainingToolCalls: max(0, in.MaxToolCalls-in.ToolCalls), TotalModelTurns: in.MaxTurns, TotalToolCalls: in.MaxToolCalls},
		NextAction:       next,
		OpenProblems:     shown,
		Phase:            phase,
		PendingApprovals: nonNil(in.PendingApprovals),
		Plan:             in.Plan,
		ResearchSources:  nonNil(in.ResearchSources),
		Validation:       validation,
		WorkspaceRoot:    in.WorkspaceRoot,
	}
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func orEmpty(v any) any {
	if v == nil {
		return []any{}
	}
	return v
}
