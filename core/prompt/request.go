package prompt

import (
	"encoding/json"

	"github.com/galaxy-stack/conform/core/port"
)

// A Request is a validated run request (RUNTIME §4.1, AiCoderRunRequest;
// CONTRACTS §9.3). Build one with [ParseRequest] (from JSON, which applies
// every rule of RUNTIME §4.3) or fill it in Go and call [ValidateRequest].
// JSON names are exact; optional fields are omitted when zero. RunID is the
// resolved run ID. Budget and Checkpoint are passed through as JSON: the
// run controller normalizes the budget (RUNTIME §5) and validates the
// checkpoint (CONTRACTS §11.6).
type Request struct {
	AcceptanceCriteria []Criterion     `json:"acceptanceCriteria,omitempty"`
	Attachments        []Attachment    `json:"attachments,omitempty"`
	Budget             json.RawMessage `json:"budget,omitempty"`
	Checkpoint         json.RawMessage `json:"checkpoint,omitempty"`
	CheckpointTrust    string          `json:"checkpointTrust,omitempty"`
	CompactOnStart     bool            `json:"compactOnStart,omitempty"`
	Completion         *Completion     `json:"completion,omitempty"`
	Constraints        []string        `json:"constraints,omitempty"`
	ContextData        []ContextItem   `json:"contextData,omitempty"`
	Goal               string          `json:"goal"`
	Mode               string          `json:"mode,omitempty"`
	PlanMode           bool            `json:"planMode,omitempty"`
	Prompt             Configuration   `json:"prompt"`
	RunID              string          `json:"runId,omitempty"`
	TaskID             string          `json:"taskId"`
	TokenProfile       string          `json:"tokenProfile,omitempty"`
	WorkspaceRoot      string          `json:"workspaceRoot"`
}

// A Criterion is one requested acceptance criterion; a nil Required means
// true.
type Criterion struct {
	ID       string `json:"id"`
	Required *bool  `json:"required,omitempty"`
	Text     string `json:"text"`
}

// An Attachment describes one attached artifact (RUNTIME §4.3 item 20).
// Trust is always "untrusted_data".
type Attachment struct {
	ArtifactID    string     `json:"artifactId"`
	ContentSha256 string     `json:"contentSha256"`
	MimeType      string     `json:"mimeType"`
	Name          string     `json:"name"`
	Provenance    Provenance `json:"provenance"`
	Retention     string     `json:"retention"`
	Trust         string     `json:"trust"`
}

// Provenance says where an attachment came from.
type Provenance struct {
	Source string `json:"source"`
}

// A ContextItem is host recall passed to the model as untrusted data in
// the user task (RUNTIME §4.1 contextData; DECISIONS 40). Source is at
// most 1,024 and Content at most 32,000 UTF-16 code units.
type ContextItem struct {
	Content string `json:"content"`
	Source  string `json:"source"`
}

// Completion holds requested completion requirements (RUNTIME §20.1); nil
// members take the run controller's defaults.
type Completion struct {
	RequireFinalReportPersistence *bool     `json:"requireFinalReportPersistence,omitempty"`
	RequireInspection             *bool     `json:"requireInspection,omitempty"`
	RequireTokenLedger            *bool     `json:"requireTokenLedger,omitempty"`
	RequireTrace                  *bool     `json:"requireTrace,omitempty"`
	RequireValidation             *bool     `json:"requireValidation,omitempty"`
	Research                      *Research `json:"research,omitempty"`
}

// Research holds the research completion requirements (RUNTIME §4.3 item
// 19).
type Research struct {
	MinFetchCalls    *int64   `json:"minFetchCalls,omitempty"`
	MinSearchCalls   *int64   `json:"minSearchCalls,omitempty"`
	RequireCitations *bool    `json:"requireCitations,omitempty"`
	RequiredDomains  []string `json:"requiredDomains,omitempty"`
}

// ModeOrDefault returns the task mode, "auto" when none is set.
func (r Request) ModeOrDefault() string {
	if r.Mode == "" {
		return port.ModeAuto
	}
	return r.Mode
}

// TokenProfileOrDefault returns the token profile, "balanced" when none is
// set.
func (r Request) TokenProfileOrDefault() string {
	if r.TokenProfile == "" {
		return TokenBalanced
	}
	return r.TokenProfile
}
