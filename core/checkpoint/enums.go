package checkpoint

import "slices"

// SchemaVersion is the only checkpoint schema version (CONTRACTS §11).
const SchemaVersion = 1

// A Reason says why a checkpoint was made (CONTRACTS §11.1).
type Reason string

// The checkpoint reasons.
const (
	ReasonAppShutdown        Reason = "app_shutdown"
	ReasonContextThreshold   Reason = "context_threshold"
	ReasonFailure            Reason = "failure"
	ReasonManual             Reason = "manual"
	ReasonMilestone          Reason = "milestone"
	ReasonPause              Reason = "pause"
	ReasonProviderOverflow   Reason = "provider_overflow"
	ReasonToolResultPressure Reason = "tool_result_pressure"
	ReasonToolRoundLimit     Reason = "tool_round_limit"
)

// Reasons lists every [Reason] in the spec's order.
func Reasons() []Reason {
	return []Reason{ReasonAppShutdown, ReasonContextThreshold, ReasonFailure, ReasonManual,
		ReasonMilestone, ReasonPause, ReasonProviderOverflow, ReasonToolResultPressure, ReasonToolRoundLimit}
}

// Valid reports whether r is one of [Reasons].
func (r Reason) Valid() bool { return slices.Contains(Reasons(), r) }

// A Phase is the run phase a checkpoint was taken in (CONTRACTS §11.1).
type Phase string

// The checkpoint phases.
const (
	PhasePreparing  Phase = "preparing"
	PhaseInspecting Phase = "inspecting"
	PhasePlanning   Phase = "planning"
	PhaseExecuting  Phase = "executing"
	PhaseValidating Phase = "validating"
	PhaseReviewing  Phase = "reviewing"
)

// Phases lists every [Phase] in the spec's order.
func Phases() []Phase {
	return []Phase{PhasePreparing, PhaseInspecting, PhasePlanning, PhaseExecuting, PhaseValidating, PhaseReviewing}
}

// Valid reports whether p is one of [Phases].
func (p Phase) Valid() bool { return slices.Contains(Phases(), p) }

// An EntryKind is the kind of a workspace entry (CONTRACTS §11.1, §7.6).
type EntryKind string

// The workspace entry kinds.
const (
	KindDirectory EntryKind = "directory"
	KindFile      EntryKind = "file"
	KindMissing   EntryKind = "missing"
	KindOther     EntryKind = "other"
	KindSymlink   EntryKind = "symlink"
)

// EntryKinds lists every [EntryKind].
func EntryKinds() []EntryKind {
	return []EntryKind{KindDirectory, KindFile, KindMissing, KindOther, KindSymlink}
}

// Valid reports whether k is one of [EntryKinds].
func (k EntryKind) Valid() bool { return slices.Contains(EntryKinds(), k) }

// HashFree reports whether an entry of kind k carries no content hash
// (directories and missing entries).
func (k EntryKind) HashFree() bool { return k == KindDirectory || k == KindMissing }

// CriterionStatus is the status of an acceptance criterion.
type CriterionStatus string

// The criterion statuses.
const (
	CriterionPending   CriterionStatus = "pending"
	CriterionSatisfied CriterionStatus = "satisfied"
	CriterionWaived    CriterionStatus = "waived"
)

// ToolOutcome is the recorded outcome of a tool call.
type ToolOutcome string

// The tool outcomes.
const (
	OutcomeCanceled  ToolOutcome = "canceled"
	OutcomeFailed    ToolOutcome = "failed"
	OutcomeSucceeded ToolOutcome = "succeeded"
	OutcomeUnknown   ToolOutcome = "unknown"
)

// ValidationStatus is the status of a validation record.
type ValidationStatus string

// The validation statuses.
const (
	ValidationFailed ValidationStatus = "failed"
	ValidationNotRun ValidationStatus = "not_run"
	ValidationPassed ValidationStatus = "passed"
)

// ValidationScope is what a validation record covers.
type ValidationScope string

// The validation scopes; [ScopePaths] needs at least one path.
const (
	ScopePaths     ValidationScope = "paths"
	ScopeWorkspace ValidationScope = "workspace"
)

// ResearchKind is the kind of a research source.
type ResearchKind string

// The research kinds; a [ResearchFetch] source needs a content hash.
const (
	ResearchFetch  ResearchKind = "fetch"
	ResearchSearch ResearchKind = "search"
)

// NoProgressPolicy is the recorded no-progress guard policy.
type NoProgressPolicy string

// The no-progress policies.
const (
	PolicyAdvisory NoProgressPolicy = "advisory"
	PolicyStrict   NoProgressPolicy = "strict"
)

// DeadlinePerExecutionSegment is the only execution-budget deadline policy.
const DeadlinePerExecutionSegment = "per_execution_segment"
