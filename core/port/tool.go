package port

import "context"

// ToolResult is the result envelope a host tool executor returns for one
// call (CONTRACTS §7.5). Effects are trusted evidence only when
// EffectsAuthority is "host".
type ToolResult struct {
	OK               bool          `json:"ok"`
	CanonicalToolID  string        `json:"canonicalToolId"`
	Content          string        `json:"content"`
	Summary          string        `json:"summary"`
	Trust            string        `json:"trust"` // external, trusted or workspace
	ArtifactRef      string        `json:"artifactRef,omitempty"`
	OutputLimits     *OutputLimits `json:"outputLimits,omitempty"`
	Error            *ToolError    `json:"error,omitempty"`
	Effects          *Effects      `json:"effects,omitempty"`
	EffectsAuthority string        `json:"effectsAuthority,omitempty"`
}

// OutputLimits overrides the run's bound on model-visible tool output.
type OutputLimits struct {
	MaxBytes     int      `json:"maxBytes"`
	MaxTokens    int      `json:"maxTokens"`
	TailFraction *float64 `json:"tailFraction,omitempty"`
}

// ToolError describes a failed call.
type ToolError struct {
	Code            string `json:"code"`
	Message         string `json:"message"`
	Retryable       bool   `json:"retryable"`
	Status          *int   `json:"status,omitempty"`
	SuggestedAction string `json:"suggestedAction,omitempty"`
}

// Effects are the host-attested effects of a call. Every field is optional;
// the capability each needs is listed in CONTRACTS §7.5.
type Effects struct {
	Approval                    string            `json:"approval,omitempty"`
	ApprovalRequestID           string            `json:"approvalRequestId,omitempty"`
	AcceptanceCriteriaSatisfied []string          `json:"acceptanceCriteriaSatisfied,omitempty"`
	AcceptanceCriteriaWaived    []string          `json:"acceptanceCriteriaWaived,omitempty"`
	DiffReview                  *DiffReview       `json:"diffReview,omitempty"`
	InspectedPaths              []string          `json:"inspectedPaths,omitempty"`
	NextAction                  string            `json:"nextAction,omitempty"`
	Plan                        *Plan             `json:"plan,omitempty"`
	ResearchSources             []ResearchSource  `json:"researchSources,omitempty"`
	StateVersion                string            `json:"stateVersion,omitempty"`
	Validations                 []ValidationEntry `json:"validations,omitempty"`
	Writes                      []Write           `json:"writes,omitempty"`
}

// DiffReview is evidence of a complete reviewed diff.
type DiffReview struct {
	DiffHash string `json:"diffHash"`
}

// Plan is the model's plan as attested by task.checkpoint.
type Plan struct {
	Completed  []string `json:"completed"`
	InProgress *string  `json:"inProgress"`
	Pending    []string `json:"pending"`
	Decisions  []string `json:"decisions,omitempty"`
}

// ResearchSource is bounded, untrusted evidence from public research.
type ResearchSource struct {
	Kind        string  `json:"kind"` // fetch or search
	URL         string  `json:"url"`
	Summary     string  `json:"summary"`
	Title       string  `json:"title,omitempty"`
	Truncated   bool    `json:"truncated"`
	ContentHash *string `json:"contentHash"`
}

// ValidationEntry is one validation outcome.
type ValidationEntry struct {
	ID     string   `json:"id"`
	Detail string   `json:"detail"`
	Scope  string   `json:"scope"` // paths or workspace
	Paths  []string `json:"paths,omitempty"`
	Status string   `json:"status"` // failed, not_run or passed
}

// Write is typed mutation evidence for one workspace path (CONTRACTS §7.6).
// A nil hash is JSON null.
type Write struct {
	Path       string  `json:"path"`
	BeforeHash *string `json:"beforeHash"`
	AfterHash  *string `json:"afterHash"`
	BeforeKind string  `json:"beforeKind,omitempty"`
	AfterKind  string  `json:"afterKind,omitempty"`
}

// ToolContext is what the core passes with each call.
type ToolContext struct {
	RunID          string `json:"runId"`
	TaskID         string `json:"taskId"`
	Mode           string `json:"mode"`
	ToolCallID     string `json:"toolCallId"`
	IdempotencyKey string `json:"idempotencyKey"`
	TimeoutMs      int    `json:"timeoutMs"`
}

// ToolSet is the active tool set of a host: model-facing definitions, the
// modelName → canonical ID routing, the effect capabilities per canonical ID
// and the registry snapshot hash.
type ToolSet struct {
	Definitions        []ToolDefinition    `json:"definitions"`
	CanonicalToolIDs   map[string]string   `json:"canonicalToolIds"`
	EffectCapabilities map[string][]string `json:"effectCapabilities"`
	SnapshotHash       string              `json:"snapshotHash"`
}

// ToolExecutor is the host's tool executor port. An error from Execute
// means the outcome of the call is unknown; the core fails the run.
type ToolExecutor interface {
	ToolSet(ctx context.Context) (ToolSet, error)
	Execute(ctx context.Context, call ToolCall, tc ToolContext) (ToolResult, error)
}
