package guard

import (
	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/port"
)

// CodeNoProgress is the error code of a call blocked by a no-progress guard
// (RUNTIME §8.2).
const CodeNoProgress = "NO_PROGRESS"

// A Call is one tool call as the guards see it, after batch preflight.
type Call struct {
	// Turn is the model turn (modelTurns) whose round emitted the call.
	Turn int
	// ToolCallID is the model's call ID.
	ToolCallID string
	// Name is the model-facing tool name.
	Name string
	// CanonicalID is the round tool set's canonical ID for Name, "" when
	// the set has none.
	CanonicalID string
	// ArgumentsHash is the runtime hash of the call's arguments.
	ArgumentsHash string
	// Arguments are the call's arguments; only "path" is read.
	Arguments map[string]any
}

// canonicalOrName is the canonical ID, or the model name when there is
// none (the original's `expected ?? call.name`).
func (c Call) canonicalOrName() string {
	if c.CanonicalID != "" {
		return c.CanonicalID
	}
	return c.Name
}

// path is the tool argument path of RUNTIME §33.4.
func (c Call) path() string {
	if p, ok := c.Arguments["path"].(string); ok && !canon.IsBlank(p) {
		return p
	}
	return "<workspace>"
}

// A Decision is what BeforeDispatch tells the controller about one call.
// The controller adds Feedback to the context as trusted runtime feedback
// and traces each Policy entry as a policy_decision event, both in order;
// then, when Block is non-nil, it answers the call with Block.Result
// instead of dispatching it (RUNTIME §15 step 9).
type Decision struct {
	Block    *Block
	Feedback []string
	Policy   []PolicyDecision
}

// A Block is the synthetic NO_PROGRESS observation of a blocked call
// (RUNTIME §8.2).
type Block struct {
	// Code is always CodeNoProgress.
	Code string
	// Message is error.message of the result.
	Message string
	// Summary is the result summary.
	Summary string
	// Detail is the message inside the result content.
	Detail string
}

// Result is the trusted tool-kind failure envelope of b for call c: the
// canonical ID falls back to the model name, content is the canonical JSON
// {"error":{"code","message","retryable":false},"ok":false}.
func (b Block) Result(c Call) port.ToolResult {
	content, err := canon.Marshal(map[string]any{
		"error": map[string]any{"code": b.Code, "message": b.Detail, "retryable": false},
		"ok":    false,
	})
	if err != nil {
		panic("guard: marshal of a string-only value failed: " + err.Error())
	}
	return port.ToolResult{
		OK: false, CanonicalToolID: c.canonicalOrName(), Content: string(content),
		Summary: b.Summary, Trust: "trusted",
		Error: &port.ToolError{Code: b.Code, Message: b.Message, Retryable: false},
	}
}

// Policy decision actions traced as policy_decision (RUNTIME §18, §19.4).
const (
	ActionObservationNudge        = "observation_nudge"
	ActionObservationBlocked      = "observation_blocked"
	ActionNoProgressRecoveryTurn  = "no_progress_recovery_turn"
	ActionBudgetFinalizationTurn  = "budget_finalization_turn"
	PauseReasonNoProgressEpisodes = "Repeated no-progress episodes require user direction."
)

// A PolicyDecision is the payload of one policy_decision trace event.
// Observation decisions carry every field but MaxTurns; the recovery turn
// carries only Action; the budget finalization turn carries Action and
// MaxTurns.
type PolicyDecision struct {
	Action          string  `json:"action"`
	Attempt         int64   `json:"attempt,omitempty"`
	CanonicalToolID string  `json:"canonicalToolId,omitempty"`
	MaxTurns        int     `json:"maxTurns,omitempty"`
	Policy          string  `json:"policy,omitempty"`
	Thresholds      []int64 `json:"thresholds,omitempty"`
	ToolCallID      string  `json:"toolCallId,omitempty"`
}

// The synthetic results of the three blocking guards (RUNTIME §8.2).
func blockObservation(attempt int64) *Block {
	return &Block{Code: CodeNoProgress, Message: "Repeated observation blocked.",
		Summary: "Repeated observation blocked after advisory nudges.",
		Detail:  "The same observation was requested " + itoa(attempt) + " times without using the retained result."}
}

func blockRepeat() *Block {
	return &Block{Code: CodeNoProgress, Message: "Repeated tool call blocked.",
		Summary: "Repeated tool call blocked by deterministic no-progress policy.",
		Detail:  "The same tool and arguments were requested more than twice without a state change."}
}

func blockCycle() *Block {
	return &Block{Code: CodeNoProgress, Message: "Repeated tool cycle blocked.",
		Summary: "Repeated tool cycle blocked by deterministic no-progress policy.",
		Detail:  "A repeated tool cycle was blocked because semantic state did not change."}
}
