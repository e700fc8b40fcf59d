package prompt

import (
	"strconv"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/clone"
	"github.com/galaxy-stack/conform/core/port"
)

// DefaultOriginalRequest replaces a blank request in a task contract
// (CONTRACTS §9.7).
const DefaultOriginalRequest = "Inspect the workspace and report its current state."

// A CriterionInput is one acceptance criterion given to [NewTaskContract].
// A nil ID is the original's plain-string form: the criterion gets the ID
// "criterion-<position>" and is required. Otherwise Required nil means
// true.
type CriterionInput struct {
	ID       *string
	Required *bool
	Text     string
}

// ContractInput holds the inputs of [NewTaskContract]
// (createAiCoderTaskContract). A nil NormalizedOutcome means the original
// request; a nil WorkspacePath is null.
type ContractInput struct {
	AcceptanceCriteria []CriterionInput
	Complexity         string
	Constraints        []string
	Mode               string
	NormalizedOutcome  *string
	OriginalRequest    string
	TaskID             string
	WorkspacePath      *string
}

// A TaskContract is the structured user task (CONTRACTS §9.7,
// AiCoderTaskContract).
type TaskContract struct {
	AcceptanceCriteria []ContractCriterion `json:"acceptanceCriteria"`
	Complexity         string              `json:"complexity"`
	Constraints        []string            `json:"constraints"`
	Mode               string              `json:"mode"`
	NormalizedOutcome  string              `json:"normalizedOutcome"`
	OriginalRequest    string              `json:"originalRequest"`
	TaskID             string              `json:"taskId"`
	WorkspacePath      *string             `json:"workspacePath"`
}

// A ContractCriterion is one acceptance criterion of a task contract.
// Inferred is always false: the core never invents a criterion.
type ContractCriterion struct {
	ID       string `json:"id"`
	Inferred bool   `json:"inferred"`
	Required bool   `json:"required"`
	Text     string `json:"text"`
}

// NewTaskContract builds a task contract (CONTRACTS §9.7): the original
// request trimmed ([DefaultOriginalRequest] when blank); each criterion's
// text and ID trimmed, dropped when either is blank, a plain criterion
// numbered by its position in the input; no criterion invented when none
// is given; complexity and mode normalized as for assembly; empty
// constraints dropped; the normalized outcome trimmed, or the original
// request when it is nil or blank.
func NewTaskContract(in ContractInput) TaskContract {
	original := canon.TrimJSSpace(in.OriginalRequest)
	if original == "" {
		original = DefaultOriginalRequest
	}
	c := TaskContract{
		AcceptanceCriteria: []ContractCriterion{},
		Complexity:         in.Complexity,
		Constraints:        []string{},
		Mode:               in.Mode,
		NormalizedOutcome:  original,
		OriginalRequest:    original,
		TaskID:             in.TaskID,
		WorkspacePath:      clone.Ptr(in.WorkspacePath),
	}
	if !contains(complexities, c.Complexity) {
		c.Complexity = ComplexityStandard
	}
	if !contains(modes, c.Mode) {
		c.Mode = port.ModeAuto
	}
	for i, cr := range in.AcceptanceCriteria {
		text := canon.TrimJSSpace(cr.Text)
		if text == "" {
			continue
		}
		id, required := "criterion-"+strconv.Itoa(i+1), true
		if cr.ID != nil {
			id = canon.TrimJSSpace(*cr.ID)
			if cr.Required != nil {
				required = *cr.Required
			}
		}
		if id == "" {
			continue
		}
		c.AcceptanceCriteria = append(c.AcceptanceCriteria, ContractCriterion{ID: id, Required: required, Text: text})
	}
	for _, s := range in.Constraints {
		if s != "" {
			c.Constraints = append(c.Constraints, s)
		}
	}
	if in.NormalizedOutcome != nil {
		if o := canon.TrimJSSpace(*in.NormalizedOutcome); o != "" {
			c.NormalizedOutcome = o
		}
	}
	return c
}

// ContractForRequest builds the task contract of a validated request as
// the run controller does (RUNTIME §10.3 step 6): the goal as original
// request and normalized outcome, the request's criteria and constraints,
// the prompt complexity, the request mode, and workspace path ".".
func ContractForRequest(r Request) TaskContract {
	criteria := make([]CriterionInput, 0, len(r.AcceptanceCriteria))
	for _, cr := range r.AcceptanceCriteria {
		id := cr.ID
		criteria = append(criteria, CriterionInput{ID: &id, Required: clone.Ptr(cr.Required), Text: cr.Text})
	}
	goal := r.Goal
	return NewTaskContract(ContractInput{
		AcceptanceCriteria: criteria, Complexity: r.Prompt.Complexity, Constraints: r.Constraints,
		Mode: r.ModeOrDefault(), NormalizedOutcome: &goal, OriginalRequest: r.Goal, TaskID: r.TaskID,
		WorkspacePath: WorkspaceRoot(),
	})
}

// UntrustedData is one item of context data in the user task; its trust
// label is always "untrusted_data".
type UntrustedData struct {
	Content     string `json:"content"`
	ContentHash string `json:"contentHash,omitempty"`
	Source      string `json:"source"`
}

// User-task headers (CONTRACTS §9.7).
const (
	UserTaskHeader    = "[GALAXY USER TASK trust=user; current request]"
	ContextDataHeader = "[GALAXY CONTEXT DATA trust=untrusted_data]"
)

// FormatUserTask formats the single user-task message (CONTRACTS §9.7,
// formatAiCoderUserTask): [UserTaskHeader], a newline, and the JSON of
// {acceptanceCriteria, complexity, constraints, mode, normalizedOutcome,
// request, taskId, workspacePath}; then, when data is not empty, a
// newline, [ContextDataHeader], a newline and the JSON of {"items": [...]}
// with every item labelled "untrusted_data". Every value is JSON-escaped,
// so no data can forge a header. The runtime calls it exactly once per
// run, for the P0 user task; trusted workspace instructions never appear
// in it.
func FormatUserTask(c TaskContract, data []UntrustedData) string {
	envelope := map[string]any{
		"acceptanceCriteria": nonNil(c.AcceptanceCriteria),
		"complexity":         c.Complexity,
		"constraints":        nonNil(c.Constraints),
		"mode":               c.Mode,
		"normalizedOutcome":  c.NormalizedOutcome,
		"request":            c.OriginalRequest,
		"taskId":             c.TaskID,
		"workspacePath":      c.WorkspacePath,
	}
	text := UserTaskHeader + "\n" + mustJSON(envelope)
	if len(data) == 0 {
		return text
	}
	items := make([]map[string]string, 0, len(data))
	for _, d := range data {
		items = append(items, untrustedItem(d))
	}
	return text + "\n" + ContextDataHeader + "\n" + mustJSON(map[string]any{"items": items})
}

// FormatUserTaskText is [FormatUserTask] with the original's legacy string
// argument: a non-empty text becomes one item from source
// "legacy_attachment_context".
func FormatUserTaskText(c TaskContract, text string) string {
	if text == "" {
		return FormatUserTask(c, nil)
	}
	return FormatUserTask(c, []UntrustedData{{Content: text, Source: legacyAttachmentSource}})
}

// UserTaskForRequest formats the user task of a validated request as the
// run controller does (RUNTIME §10.3 step 6; DECISIONS 40): the request's
// contextData items become the untrusted data.
func UserTaskForRequest(r Request, c TaskContract) string {
	data := make([]UntrustedData, 0, len(r.ContextData))
	for _, d := range r.ContextData {
		data = append(data, UntrustedData{Content: d.Content, Source: d.Source})
	}
	return FormatUserTask(c, data)
}

func untrustedItem(d UntrustedData) map[string]string {
	item := map[string]string{"content": d.Content, "source": d.Source, "trust": TrustUntrustedData}
	if d.ContentHash != "" {
		item["contentHash"] = d.ContentHash
	}
	return item
}

func nonNil[S ~[]E, E any](s S) S {
	if s == nil {
		return S{}
	}
	return s
}
