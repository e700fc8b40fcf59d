package faults

// The names of the core faults. Core code passes these constants to [On];
// [All] describes each.
const (
	// Batch preflight (RUNTIME §13).
	BatchAllowDuplicateIDs = "batch-allow-duplicate-ids"
	BatchAllowReusedIDs    = "batch-allow-reused-ids"
	BatchSkipBudgetCheck   = "batch-skip-budget-check"
	BatchSkipInactiveCheck = "batch-skip-inactive-check"

	// Sequential dispatch and the batch stop policy (RUNTIME §14).
	BatchDispatchReversed             = "batch-dispatch-reversed"
	BatchContinueAfterUnknownOutcome  = "batch-continue-after-unknown-outcome"
	BatchContinueAfterPendingApproval = "batch-continue-after-pending-approval"
	BatchStopAfterFailedResult        = "batch-stop-after-failed-result"
	UnknownOutcomeAsFailure           = "unknown-outcome-as-failure"

	// Result envelope and effect authority (CONTRACTS §7.7).
	EffectsSkipIdentityCheck    = "effects-skip-identity-check"
	EffectsSkipCapabilityCheck  = "effects-skip-capability-check"
	EffectsAcceptOnFailedResult = "effects-accept-on-failed-result"

	// Completion gate (RUNTIME §20).
	GateAcceptStaleDiffReview   = "gate-accept-stale-diff-review"
	GateAcceptFailedValidation  = "gate-accept-failed-validation"
	GateMissingFingerprintFresh = "gate-missing-fingerprint-fresh"
	GateWriteKeepsValidation    = "gate-write-keeps-validation"
	GateDocWriteVoidsValidation = "gate-doc-write-voids-validation"
	GateOldestValidationWins    = "gate-oldest-validation-wins"

	// Resume and persistence (RUNTIME §10.3, §20.3, §21; items 11, 12, 40, 41).
	ResumeAcceptUntrustedCheckpoint = "resume-accept-untrusted-checkpoint"
	ResumeSkipIntegrityCheck        = "resume-skip-integrity-check"
	ResumeSkipWorkspaceVerify       = "resume-skip-workspace-verify"
	CheckpointIgnoreSaveFailure     = "checkpoint-ignore-save-failure"
	CompleteDespiteReportFailure    = "complete-despite-report-failure"
	CompleteDespiteTraceFailure     = "complete-despite-trace-failure"
	// Resume restoration (RUNTIME §19.1, §21.6).
	ResumeDropsCycleSuffix  = "resume-drops-cycle-suffix"
	ResumeSkipsFinalization = "resume-skips-finalization"
	ResumeDropsEditEvidence = "resume-drops-edit-evidence"

	// No-progress guards (RUNTIME §18) and their restoration (§21.6).
	GuardSkipIdenticalRepeat    = "guard-skip-identical-repeat"
	GuardSkipFailedFamily       = "guard-skip-failed-family"
	GuardSkipWriteHashCycle     = "guard-skip-write-hash-cycle"
	GuardSkipRepeatedValidation = "guard-skip-repeated-validation"
	ResumeDropsRepeatCount      = "resume-drops-repeat-count"
	ResumeDropsFailedFamilies   = "resume-drops-failed-families"

	// Checkpoint integrity (CONTRACTS §11.6).
	CheckpointSkipContentHash = "checkpoint-skip-content-hash"
	// Ending a canceled run (RUNTIME §22.3).
	CancelAsFailure = "cancel-as-failure"
	// Determinism of the run record (RUNTIME §3, DESIGN "Replay").
	ExecutionIDWallClock = "execution-id-wall-clock"

	// Context pressure, compaction and how context and storage failures
	// are reported (RUNTIME §11 steps 6–7, §21.1, CONTRACTS §12.5; items
	// 25, 26, 36, 38, 42).
	OverflowSkipCompaction      = "overflow-skip-compaction"
	OverflowUnboundedRecount    = "overflow-unbounded-recount"
	CompactionDropsTask         = "compaction-drops-task"
	ToolPressureSkipCheckpoint  = "tool-pressure-skip-checkpoint"
	BudgetAsProviderError       = "budget-as-provider-error"
	PersistenceAsProviderError  = "persistence-as-provider-error"
	CheckpointDropsEarlierEdits = "checkpoint-drops-earlier-edits"
	// Prompt input, prompt hash and resume compatibility (RUNTIME §4.3,
	// CONTRACTS §9; items 15, 16, 17).
	PromptAcceptLegacyFields  = "prompt-accept-legacy-fields"
	PromptAcceptUnknownKeys   = "prompt-accept-unknown-keys"
	PromptHashIgnoresRegistry = "prompt-hash-ignores-registry"
	PromptHashIgnoresPolicy   = "prompt-hash-ignores-policy"
	ResumeIgnoresPromptChange = "resume-ignores-prompt-change"

	// Resume compatibility of the capability probe (RUNTIME §10.3 step 8,
	// §21.4), the observation projection and the tool-cycle guard (§17,
	// §18.3) and tool-free finalization (§19.3): items 18, 46, 47, 48.
	ProbeTimestampInResumeCompat              = "probe-timestamp-in-resume-compat"
	ResumeIgnoresCapabilitiesHash             = "resume-ignores-capabilities-hash"
	GuardCountsIdenticalObservationAsProgress = "guard-counts-identical-observation-as-progress"
	GuardSkipToolCycle                        = "guard-skip-tool-cycle"
	FinalizationOffersTools                   = "finalization-offers-tools"
	FinalizationDispatchesToolCall            = "finalization-dispatches-tool-call"
)
