package replay

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/internal/redact"
	"github.com/galaxy-stack/conform/matrix/lab"
)

// Version is the transcript format version; it is part of every
// transcript, so a change of format changes every hash.
const Version = 1

// A Transcript is the normalized record of one fixture run.
type Transcript struct {
	Version int     `json:"version"`
	Fixture string  `json:"fixture"`
	RunID   string  `json:"runId"`
	Events  []Event `json:"events"`
	Final   Final   `json:"final"`
}

// An Event is one step of the run, in order. Kind is a runtime event type
// (model, tool_start, tool_result, model_retry, checkpoint, compaction,
// plan, completion_rejected, context_pressure, token_ledger, state) or
// "model_request"; the other fields are those the kind has.
type Event struct {
	Kind      string `json:"kind"`
	Execution string `json:"execution,omitempty"`
	Turn      int    `json:"turn,omitempty"`

	Request    *Request         `json:"request,omitempty"`
	Model      *ModelEvent      `json:"model,omitempty"`
	Call       *Call            `json:"call,omitempty"`
	Result     *Result          `json:"result,omitempty"`
	Checkpoint *lab.Audit       `json:"checkpoint,omitempty"`
	Plan       *checkpoint.Plan `json:"plan,omitempty"`
	Transition string           `json:"transition,omitempty"`
	Pressure   string           `json:"pressure,omitempty"`
	Issues     []string         `json:"issues,omitempty"`
	Attempt    int              `json:"attempt,omitempty"`
	DelayMs    int64            `json:"delayMs,omitempty"`
	Reason     string           `json:"reason,omitempty"`
	Tokens     int              `json:"tokens,omitempty"`
	Ledger     *LedgerEvent     `json:"ledger,omitempty"`
}

// A Request is one round request the scripted model received.
type Request struct {
	Outcome         string   `json:"outcome"`
	Round           int      `json:"round,omitempty"`
	Messages        int      `json:"messages"`
	ToolNames       []string `json:"toolNames"`
	ToolFree        bool     `json:"toolFree"`
	Think           bool     `json:"think"`
	ContainsTask    bool     `json:"containsTask"`
	CheckpointsSeen int      `json:"checkpointsSeen"`
}

// A ModelEvent is one stream event of a model response.
type ModelEvent struct {
	Type       string `json:"type"`
	Delta      string `json:"delta,omitempty"`
	Content    string `json:"content,omitempty"`
	Thinking   string `json:"thinking,omitempty"`
	Call       *Call  `json:"call,omitempty"`
	StopReason string `json:"stopReason,omitempty"`
	ErrorCode  string `json:"errorCode,omitempty"`
}

// A Call is a tool call as the model made it.
type Call struct {
	Name      string         `json:"name"`
	ID        string         `json:"toolCallId"`
	Arguments map[string]any `json:"arguments"`
}

// A Result is a tool call's result, without its text.
type Result struct {
	Name             string   `json:"name"`
	ID               string   `json:"toolCallId"`
	CanonicalToolID  string   `json:"canonicalToolId"`
	OK               bool     `json:"ok"`
	ErrorCode        string   `json:"errorCode,omitempty"`
	Trust            string   `json:"trust,omitempty"`
	EffectsAuthority string   `json:"effectsAuthority,omitempty"`
	Effects          *Effects `json:"effects,omitempty"`
}

// Effects are a result's attested effects without host-opaque values.
type Effects struct {
	Approval     string       `json:"approval,omitempty"`
	Satisfied    []string     `json:"acceptanceCriteriaSatisfied,omitempty"`
	Waived       []string     `json:"acceptanceCriteriaWaived,omitempty"`
	DiffReviewed bool         `json:"diffReviewed,omitempty"`
	Inspected    []string     `json:"inspectedPaths,omitempty"`
	NextAction   string       `json:"nextAction,omitempty"`
	Plan         *port.Plan   `json:"plan,omitempty"`
	Research     []Source     `json:"researchSources,omitempty"`
	Validations  []Validation `json:"validations,omitempty"`
	Writes       []Write      `json:"writes,omitempty"`
}

// A Validation is a validation outcome without its free-form detail
// (which holds command output and durations).
type Validation struct {
	ID     string   `json:"id"`
	Scope  string   `json:"scope"`
	Paths  []string `json:"paths,omitempty"`
	Status string   `json:"status"`
}

// A Source is a research source without its summary text.
type Source struct {
	Kind        string  `json:"kind"`
	URL         string  `json:"url"`
	Truncated   bool    `json:"truncated"`
	ContentHash *string `json:"contentHash"`
}

// A Write is typed mutation evidence; the hashes of a symlink or special
// entry are left out (the host's, not the harness's).
type Write struct {
	Path       string  `json:"path"`
	BeforeKind string  `json:"beforeKind,omitempty"`
	AfterKind  string  `json:"afterKind,omitempty"`
	BeforeHash *string `json:"beforeHash"`
	AfterHash  *string `json:"afterHash"`
}

// A LedgerEvent is the deterministic part of a token_ledger event.
type LedgerEvent struct {
	Turn         int `json:"turn"`
	OutputTokens int `json:"outputTokens"`
}

// Final is the end of the run.
type Final struct {
	Status            string          `json:"status"`
	ErrorCode         *string         `json:"errorCode"`
	NotApplicable     bool            `json:"notApplicable,omitempty"`
	ExecutionStatuses []string        `json:"executionStatuses"`
	Writes            []Write         `json:"writes"`
	Checkpoints       []lab.Audit     `json:"checkpoints"`
	ContextAudit      ContextAudit    `json:"modelContextAudit"`
	Approvals         []Approval      `json:"approvals"`
	Faults            []string        `json:"faults"`
	Workspace         []SnapshotEntry `json:"workspace"`
}

// ContextAudit is the model-context audit with the count of observed
// checkpoint hashes in place of the hashes.
type ContextAudit struct {
	AllRequestsContainTask  bool `json:"allRequestsContainTask"`
	ObservedCheckpointCount int  `json:"observedCheckpointCount"`
}

// An Approval is one approval request the harness answered.
type Approval struct {
	CanonicalToolID string `json:"canonicalToolId"`
	ModelName       string `json:"modelName"`
	Approved        bool   `json:"approved"`
}

// A SnapshotEntry is one entry of the harness's final snapshot.
type SnapshotEntry struct {
	Path string `json:"path"`
	Kind string `json:"kind"`
	Hash string `json:"hash,omitempty"`
}

// Hash returns the replay hash: "sha256:" and the hex SHA-256 of the
// transcript's JCS form.
func (t *Transcript) Hash() (string, error) {
	h, err := canon.Hash(t)
	if err != nil {
		return "", fmt.Errorf("hashing the transcript of %s: %w", t.Fixture, err)
	}
	return h, nil
}

// JSON returns the transcript indented for reading, one member a line, a
// trailing newline: the form golden files and --transcript hold. The
// object members are in canonical (JCS) order, so the text is a function
// of the transcript alone.
func (t *Transcript) JSON() ([]byte, error) {
	c, err := canon.Marshal(t)
	if err != nil {
		return nil, err
	}
	var v any
	if err := json.Unmarshal(c, &v); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// RedactedJSON returns the transcript as JSON does with every secret in
// its strings redacted (package redact): the form --transcript writes, a
// file people share. A transcript from which a secret was redacted no
// longer hashes to the run's replay hash, which is over what the host did.
func (t *Transcript) RedactedJSON() ([]byte, error) {
	b, err := t.JSON()
	if err != nil {
		return nil, err
	}
	return redact.JSON(b), nil
}

// Parse reads a transcript written by JSON.
func Parse(data []byte) (*Transcript, error) {
	var t Transcript
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, fmt.Errorf("not a replay transcript: %w", err)
	}
	return &t, nil
}
