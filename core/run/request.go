package run

import (
	"bytes"
	"encoding/json"

	"github.com/galaxy-stack/conform/core/checkpoint"
)

// Task modes (CONTRACTS §3).
const (
	ModeAuto         = "auto"
	ModeRefactor     = "refactor"
	ModeReviewOnly   = "review_only"
	ModeScaffold     = "scaffold"
	ModeValidateOnly = "validate_only"
)

// A Request is a run request (RUNTIME §4.1, AiCoderRunRequest). JSON names
// are exact; optional members are omitted when zero. A resume request also
// needs RunID and may carry a caller checkpoint with its trust assertion.
type Request struct {
	Goal               string           `json:"goal"`
	TaskID             string           `json:"taskId"`
	WorkspaceRoot      string           `json:"workspaceRoot"`
	Prompt             *PromptConfig    `json:"prompt,omitempty"`
	RunID              string           `json:"runId,omitempty"`
	Mode               string           `json:"mode,omitempty"`
	AcceptanceCriteria []CriterionInput `json:"acceptanceCriteria,omitempty"`
	Constraints        []string         `json:"constraints,omitempty"`
	Attachments        []Attachment     `json:"attachments,omitempty"`
	Budget             *BudgetInput     `json:"budget,omitempty"`
	Completion         *Completion      `json:"completion,omitempty"`
	TokenProfile       string           `json:"tokenProfile,omitempty"`
	ContextData        []ContextItem    `json:"contextData,omitempty"`
	CompactOnStart     bool             `json:"compactOnStart,omitempty"`
	PlanMode           bool             `json:"planMode,omitempty"`
	// Checkpoint is a caller-provided checkpoint for Resume, as serialized
	// JSON; it is only accepted with CheckpointTrust "trusted_host".
	Checkpoint      json.RawMessage `json:"checkpoint,omitempty"`
	CheckpointTrust string          `json:"checkpointTrust,omitempty"`
}

// PromptConfig is the structured prompt configuration (CONTRACTS §9.1).
type PromptConfig struct {
	ApprovalProfile              string             `json:"approvalProfile"`
	Complexity                   string             `json:"complexity"`
	NetworkAccess                string             `json:"networkAccess"`
	WriteAccess                  string             `json:"writeAccess"`
	DirtyStateSummary            *string            `json:"dirtyStateSummary,omitempty"`
	HostEnvironment              *HostEnvironment   `json:"hostEnvironment,omitempty"`
	TrustedWorkspaceInstructions []TrustedStatement `json:"trustedWorkspaceInstructions,omitempty"`
	AgentProfile                 string             `json:"agentProfile,omitempty"`
}

// HostEnvironment describes the host machine (CONTRACTS §9.2).
type HostEnvironment struct {
	Architecture    string             `json:"architecture"`
	Command         CommandEnvironment `json:"command"`
	OperatingSystem string             `json:"operatingSystem"`
}

// CommandEnvironment is the host's command interpreter contract (CONTRACTS
// §9.2).
type CommandEnvironment struct {
	ArgumentsPrefix []string `json:"argumentsPrefix"`
	CommandMode     string   `json:"commandMode"`
	Executable      string   `json:"executable"`
	Interactive     bool     `json:"interactive"`
	PathStyle       string   `json:"pathStyle"`
	Shell           string   `json:"shell"`
	Stdin           string   `json:"stdin"`
	TTY             bool     `json:"tty"`
}

// TrustedStatement is one host-validated workspace instruction.
type TrustedStatement struct {
	Content     string `json:"content"`
	ContentHash string `json:"contentHash,omitempty"`
	Source      string `json:"source"`
}

// CriterionInput is one requested acceptance criterion; Required nil means
// true.
type CriterionInput struct {
	ID       string `json:"id"`
	Text     string `json:"text"`
	Required *bool  `json:"required,omitempty"`
}

// Attachment is an attachment descriptor (RUNTIME §4.3 item 20).
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

// ContextItem is host recall passed as untrusted data.
type ContextItem struct {
	Source  string `json:"source"`
	Content string `json:"content"`
}

// Completion holds the requested completion requirements (RUNTIME §20.1);
// nil members take the defaults.
type Completion struct {
	RequireFinalReportPersistence *bool             `json:"requireFinalReportPersistence,omitempty"`
	RequireInspection             *bool             `json:"requireInspection,omitempty"`
	RequireTokenLedger            *bool             `json:"requireTokenLedger,omitempty"`
	RequireTrace                  *bool             `json:"requireTrace,omitempty"`
	RequireValidation             *bool             `json:"requireValidation,omitempty"`
	Research                      *ResearchRequests `json:"research,omitempty"`
}

// ResearchRequests are the requested research requirements.
type ResearchRequests struct {
	MinFetchCalls    *float64 `json:"minFetchCalls,omitempty"`
	MinSearchCalls   *float64 `json:"minSearchCalls,omitempty"`
	RequireCitations *bool    `json:"requireCitations,omitempty"`
	RequiredDomains  []string `json:"requiredDomains,omitempty"`
}

// DecodeRequest decodes and validates a run request given as JSON, as the
// original validates a request object: legacy prompt fields and unknown
// members are refused with the original messages (RUNTIME §4.2, §4.3).
func DecodeRequest(data []byte) (Request, error) {
	var raw any
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&raw); err != nil {
		return Request{}, typeError("Run request is not valid JSON: %v", err)
	}
	obj, ok := raw.(map[string]any)
	if !ok {
		return Request{}, typeError("Run request must be an object.")
	}
	runID, _ := obj["runId"].(string)
	if err := validateRequest(obj, runID); err != nil {
		return Request{}, err
	}
	var req Request
	if err := json.Unmarshal(data, &req); err != nil {
		return Request{}, typeError("Run request has a malformed member: %v", err)
	}
	return req, nil
}

// Validate checks r as Start would, with runID as the resolved run ID.
func (r Request) validate(runID string) error {
	data, err := json.Marshal(r)
	if err != nil {
		return typeError("Run request cannot be encoded: %v", err)
	}
	var obj map[string]any
	if err := json.Unmarshal(data, &obj); err != nil {
		return typeError("Run request cannot be encoded: %v", err)
	}
	return validateRequest(obj, runID)
}

// clone returns a deep copy of r through JSON (the request snapshot of
// RUNTIME §4.4).
func (r Request) clone() Request {
	data, err := json.Marshal(r)
	if err != nil {
		return r
	}
	var out Request
	if json.Unmarshal(data, &out) != nil {
		return r
	}
	return out
}

// mode returns the request's mode or auto.
func (r Request) mode() string {
	if r.Mode == "" {
		return ModeAuto
	}
	return r.Mode
}

// criteria returns the initial acceptance criteria records (RUNTIME §16.8).
func (r Request) criteria() []checkpoint.Criterion {
	out := []checkpoint.Criterion{}
	for _, c := range r.AcceptanceCriteria {
		req := c.Required == nil || *c.Required
		out = append(out, checkpoint.Criterion{EvidenceIDs: []string{}, ID: c.ID, Required: req, Status: checkpoint.CriterionPending, Text: c.Text})
	}
	return out
}
