package oracle

import (
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/galaxy-stack/conform/matrix/snapshot"
)

// Observed is the record of one fixture run that the oracle checks: what
// the runner saw over every execution of the fixture (resumes included) and
// the harness's own snapshots of the workspace. The field comments say
// where each value comes from (LAB §3.10, §5). A nil slice and an empty one
// mean the same: nothing was observed.
type Observed struct {
	// Status is the final status in the fixture vocabulary (completed,
	// failed, canceled, paused); see StatusOf.
	Status string `json:"status"`
	// ErrorCode is the final result's error code, nil when it has none.
	ErrorCode *string `json:"errorCode"`
	// ExecutionStatuses holds the status of each execution, in order.
	ExecutionStatuses []string `json:"executionStatuses"`
	// Checkpoints are the checkpoints persisted to the run store, in save
	// order, across all executions.
	Checkpoints []Checkpoint `json:"checkpoints"`
	// ContextPressures holds the pressure of every context_pressure event.
	ContextPressures []string `json:"contextPressures"`
	// RetryDelaysMs holds every retry sleep the core asked for, in order.
	RetryDelaysMs []int `json:"retryDelaysMs"`
	// ModelRequestCount is the number of round requests the model received,
	// including requests answered with a cancellation.
	ModelRequestCount int `json:"modelRequestCount"`
	// ModelRoundsConsumed and ModelTokenCountStepsConsumed are the scripted
	// model's round and token-count cursors; the round cursor can exceed the
	// number of rounds (LAB §8).
	ModelRoundsConsumed          int `json:"modelRoundsConsumed"`
	ModelTokenCountStepsConsumed int `json:"modelTokenCountStepsConsumed"`
	// ToolSequence holds the model-facing name of every tool_start event.
	ToolSequence []string `json:"toolSequence"`
	// ToolResults holds every tool_result event, in order; it can be longer
	// than ToolSequence (calls blocked before dispatch have no start).
	ToolResults []ToolResult `json:"toolResults"`
	// FinalResponse is the final result's content.
	FinalResponse string `json:"finalResponse"`
	// CompletionRejections holds the issues of every completion_rejected
	// event.
	CompletionRejections [][]string `json:"completionRejections"`
	// TraceKinds holds the kind of every trace event recorded, in order;
	// its length is the trace event count.
	TraceKinds []string `json:"traceKinds"`
	// Transitions holds every state transition of every execution, in
	// order, written "from->to".
	Transitions []string `json:"transitions"`
	// ControlsFired says, for each declared control in declaration order,
	// whether it fired; see ControlsFired.
	ControlsFired []bool `json:"controlsFired"`
	// Writes is the final result's write evidence, in order.
	Writes []port.Write `json:"writes"`
	// Initial is the harness's snapshot after arrangement and before the
	// first execution; Final is the one taken after the last execution.
	Initial snapshot.Snapshot `json:"initial"`
	Final   snapshot.Snapshot `json:"final"`
	// Files holds the final state of every path expected.files names, read
	// by the harness itself; see ReadFiles.
	Files map[string]File `json:"files"`
}

// A ToolResult is one tool_result event of the run.
type ToolResult struct {
	// ToolName is the call's model-facing name.
	ToolName        string  `json:"toolName"`
	CanonicalToolID string  `json:"canonicalToolId"`
	OK              bool    `json:"ok"`
	ErrorCode       *string `json:"errorCode"`
	Summary         string  `json:"summary"`
	// Content is the model-visible result text (compact JSON for host
	// tools, LAB §20.2).
	Content string `json:"content"`
	// EffectsAuthority and Effects are the result's attested effects as the
	// core received them; matrix items check them, the fixture oracle
	// does not.
	EffectsAuthority string        `json:"effectsAuthority,omitempty"`
	Effects          *port.Effects `json:"effects,omitempty"`
}

// A Checkpoint is one checkpoint persisted during the run.
type Checkpoint struct {
	Reason      string `json:"reason"`
	ContentHash string `json:"contentHash"`
	// IntegrityError is the core integrity check's error for this
	// checkpoint, or "" when it passed.
	IntegrityError string `json:"integrityError,omitempty"`
}

// A File is the final state of one workspace path as the harness read it.
type File struct {
	// Kind is an entry kind of a snapshot (effects.KindMissing when there is
	// no entry).
	Kind string `json:"kind"`
	// Content is the whole content of a readable regular file.
	Content string `json:"content,omitempty"`
	// ErrorCode is "" for a readable regular file, else why it cannot be
	// read as text, as a workspace port would say it: NOT_FOUND,
	// INVALID_INPUT (not a regular file, not UTF-8), PERMISSION_DENIED or
	// IO_ERROR, or LIMIT_EXCEEDED for a file over the read cap.
	ErrorCode string `json:"errorCode,omitempty"`
	// Target is the target string of a symbolic link that leads out of the
	// workspace: the harness reports the link and reads nothing behind it.
	Target string `json:"target,omitempty"`
}

// CheckpointReasons returns the reason of every persisted checkpoint, in
// save order (LAB §3.10 checkpointReasons).
func (o *Observed) CheckpointReasons() []string {
	out := make([]string, len(o.Checkpoints))
	for i, c := range o.Checkpoints {
		out[i] = c.Reason
	}
	return out
}

// AllModelStepsConsumed reports whether the scripted model served exactly
// fx's rounds and token-count steps (LAB §4.15).
func (o *Observed) AllModelStepsConsumed(fx *fixture.Fixture) bool {
	return o.ModelRoundsConsumed == len(fx.Rounds) &&
		o.ModelTokenCountStepsConsumed == tokenSteps(fx)
}

// ChangedPaths returns the paths whose kind or hash differs between the
// initial and the final snapshot, sorted (LAB §3.5). Entries whose name
// ends in ".galaxy-code.lock" are left out, as the original snapshot
// leaves them out.
func (o *Observed) ChangedPaths() []string {
	var out []string
	for _, c := range snapshot.Diff(o.Initial, o.Final) {
		if isLock(c.Path) {
			continue
		}
		out = append(out, c.Path)
	}
	return out
}

// StatusOf maps a core run state to the fixture vocabulary: "cancelled"
// becomes "canceled", every other state is unchanged (LAB §3.9).
func StatusOf(state string) string {
	if state == "cancelled" {
		return fixture.StatusCanceled
	}
	return state
}

// ControlsFired returns, for declared controls, whether each fired, given
// the 1-based indexes of the controls that did not (model.Controls.Unfired).
func ControlsFired(declared int, unfired []int) []bool {
	out := make([]bool, declared)
	for i := range out {
		out[i] = true
	}
	for _, n := range unfired {
		if n >= 1 && n <= declared {
			out[n-1] = false
		}
	}
	return out
}

func tokenSteps(fx *fixture.Fixture) int {
	if fx.Model == nil {
		return 0
	}
	return len(fx.Model.TokenCountSteps)
}
