package faults

import (
	"slices"
	"sort"
)

// A Fault is one named switch that turns off one rule of the core.
type Fault struct {
	// Name is the fault's kebab-case name, one of the constants of this
	// package.
	Name string `json:"name"`
	// Rule is the rule of the fact sheets the fault breaks, with its
	// section.
	Rule string `json:"rule"`
	// Description says in one line what the core does wrong with the fault
	// on.
	Description string `json:"description"`
	// Items are the matrix items expected to catch the fault.
	Items []int `json:"items"`
}

// registry lists every fault, in no particular order; All sorts it.
var registry = []Fault{
	{BatchAllowDuplicateIDs, "RUNTIME §13 step 1: duplicate or blank toolCallIds in one batch fail INVALID_MODEL_STREAM before any dispatch",
		"lets a batch with a duplicate toolCallId through preflight, so its first call runs before the duplicate is refused", []int{44}},
	{BatchAllowReusedIDs, "RUNTIME §13 step 4: a toolCallId already used in the run fails INVALID_MODEL_STREAM before any dispatch",
		"lets a batch that reuses an earlier round's toolCallId through preflight, so the calls before it run", []int{44}},
	{BatchSkipBudgetCheck, "RUNTIME §13 step 5: toolCalls + batch size > maxToolCalls fails MAX_TOOL_CALLS before any dispatch",
		"checks maxToolCalls only per call, so a batch over the budget runs its first calls before failing", []int{44}},
	{BatchSkipInactiveCheck, "RUNTIME §13 step 3: a name not among the round's visible definitions fails INVALID_MODEL_STREAM before any dispatch",
		"skips the same-batch active-name check, so the calls before an inactive or unknown tool run", []int{44}},
	{BatchDispatchReversed, "RUNTIME §14: calls run strictly one at a time in model order",
		"dispatches a batch's calls in reverse of the order the model emitted them", []int{43}},
	{BatchContinueAfterUnknownOutcome, "RUNTIME §14: after an unknown side-effect outcome the run fails TOOL_EXECUTION and the remaining calls never run",
		"keeps dispatching the rest of a batch after a call's outcome became unknown, and fails only afterwards", []int{45}},
	{BatchContinueAfterPendingApproval, "RUNTIME §14, §8.2: after a call left an approval pending, every remaining call is answered BATCH_BLOCKED_BY_APPROVAL without dispatch",
		"goes on to the next call of a batch after a pending approval instead of blocking the rest", []int{7, 45}},
	{BatchStopAfterFailedResult, "RUNTIME §14: a structured result with ok=false is an ordinary observation, and the batch continues with the next call",
		"ends the run TOOL_EXECUTION at a batch's first structured failure, so later independent calls never run", []int{45}},
	{UnknownOutcomeAsFailure, "RUNTIME §15 step 12, DECISIONS 66: an adapter that throws after dispatch (or an output-schema failure) is an unknown outcome that fails the run TOOL_EXECUTION",
		"turns an executor error after dispatch into an ordinary failed tool result and lets the run go on", []int{29, 34, 45}},
	{EffectsSkipIdentityCheck, "CONTRACTS §7.7, RUNTIME §15 step 13: result.canonicalToolId must equal the canonical ID the round's tool set maps the called name to",
		"accepts a result whose canonicalToolId names another tool than the one called", []int{9}},
	{EffectsSkipCapabilityCheck, "CONTRACTS §7.7, RUNTIME §16.2: host-attested effects need the capabilities the effect profile grants the tool",
		"applies host-attested effects the tool's effect profile does not allow (forged effects)", []int{9}},
	{EffectsAcceptOnFailedResult, "CONTRACTS §7.7, RUNTIME §16.1: a failed result may carry only approval \"denied\" and its correlated request id",
		"accepts any effects on an ok=false result instead of failing the run TOOL_EXECUTION (they are then ignored, as a failed result's are)", []int{35}},
	{GateAcceptStaleDiffReview, "RUNTIME §20.2 DIFF_NOT_REVIEWED: the final diff review must come after the last write",
		"accepts any final diff review, even one made before the last write (sequence and fingerprint not compared)", []int{3}},
	{GateAcceptFailedValidation, "RUNTIME §20.2 VALIDATION_FAILED: a current failed validation refuses completion",
		"counts a failed validation as a passing one", []int{4}},
	{GateMissingFingerprintFresh, "RUNTIME §20.2: without a final workspace fingerprint every validation counts as drifted (stale)",
		"treats a missing final workspace fingerprint as no drift", []int{4}},
	{GateWriteKeepsValidation, "RUNTIME §20.2, §20.4: a later covered non-documentation write makes an earlier validation stale",
		"keeps a validation current after a later write to a path it covers", []int{4}},
	{GateDocWriteVoidsValidation, "RUNTIME §20.4: documentation writes neither void validations nor need one",
		"lets a later documentation write (README.md, docs/…) void the validations that cover it", []int{3}},
	{GateOldestValidationWins, "RUNTIME §20.2: the effective validation of an id is its latest record, so a newer pass supersedes an older failure",
		"keeps the oldest record of each validation id, so a passing re-run never supersedes the failure it fixed", []int{19, 51}},
	{GuardSkipIdenticalRepeat, "RUNTIME §18.2: a call repeated with identical arguments on one state version more than maxRepeatedToolRequests times is answered NO_PROGRESS without dispatch",
		"turns the identical-repeat guard off, so an identical stale edit reaches the host again and again", []int{21, 31}},
	{GuardSkipFailedFamily, "RUNTIME §18.3: the third failure of a write-capable tool on one path and workspace state is a no-progress incident",
		"never counts failed mutations per path and state, so varied failing edits of one file never pause the run", []int{22, 31}},
	{GuardSkipWriteHashCycle, "RUNTIME §18.5: a write that returns a path to an earlier content hash is a no-progress incident",
		"turns the write-hash cycle guard off, so writes toggling a file between two contents never pause the run", []int{23}},
	{GuardSkipRepeatedValidation, "RUNTIME §18.5: the third failure of one validation id on one workspace fingerprint is a no-progress incident",
		"never counts validation failures per fingerprint, so a validation failing again and again on an unchanged workspace never pauses the run", []int{24}},
	{ResumeDropsRepeatCount, "RUNTIME §21.6: on resume the identical-repeat count is restored from noProgress.previousTool",
		"restores no previous tool on resume, so a resumed run lets maxRepeatedToolRequests more identical calls through", []int{31}},
	{ResumeDropsFailedFamilies, "RUNTIME §21.6: on resume the failed mutation families are restored from noProgress.failedToolFamilies",
		"restores no failed tool families on resume, so a resumed run counts failing edits of a path from zero again", []int{31}},
	{ResumeAcceptUntrustedCheckpoint, "RUNTIME §10.3 step 2: a caller-provided checkpoint without the trusted_host provenance assertion fails CHECKPOINT_INCOMPATIBLE",
		"resumes from a caller-provided checkpoint that nobody vouched for (a re-hashed forgery the host's store never returned)", []int{11}},
	{ResumeSkipIntegrityCheck, "RUNTIME §10.3 step 2, CONTRACTS §11.6: a checkpoint whose content hash does not match its payload fails CHECKPOINT_INCOMPATIBLE",
		"decodes the resume checkpoint without the integrity assertion, so a tampered checkpoint resumes", []int{11}},
	{ResumeSkipWorkspaceVerify, "RUNTIME §21.5: resume verifies the recorded workspace fingerprint through the host; a mismatch fails CHECKPOINT_INCOMPATIBLE",
		"resumes without asking the host to verify the workspace fingerprint, so a changed workspace resumes", []int{10, 11}},
	{CheckpointIgnoreSaveFailure, "RUNTIME §21.1 step 7: a checkpoint store failure (even after the store committed) fails PERSISTENCE_ERROR",
		"treats a failed checkpoint put as saved and goes on with the run", []int{40}},
	{CompleteDespiteReportFailure, "RUNTIME §20.3 step 3: a final-report store failure (even after the store committed) fails PERSISTENCE_ERROR",
		"counts a final report whose put failed as stored, so the run completes", []int{12, 40}},
	{CompleteDespiteTraceFailure, "RUNTIME §20.3 step 6, §26.2: a lost trace event or a failed flush leaves TRACE_NOT_FINALIZED, which fails PERSISTENCE_ERROR",
		"counts the trace as finalized whatever its emits and flush answered, so the run completes", []int{12, 41}},
	{ResumeDropsCycleSuffix, "RUNTIME §21.6: on resume the cycle history is rebuilt from noProgress.toolCycleSuffix, so an incomplete alternating cycle stays incomplete across a pause",
		"restores no cycle history from the checkpoint, so a resumed run dispatches the call that completes an alternating cycle", []int{49}},
	{ResumeSkipsFinalization, "RUNTIME §19.1, §11: a resumed run whose restored evidence is ready enters tool-free finalization before its first model request",
		"offers the full tool set on the first request of a verified resume, so completed validation and review work can run again", []int{50}},
	{ResumeDropsEditEvidence, "RUNTIME §21.6: a resume restores the writes of the checkpoint's edits as durable edit evidence",
		"restores no edit evidence on resume, so a resumed run no longer accounts for the write it made before the checkpoint", []int{37}},
	{CheckpointSkipContentHash, "CONTRACTS §11.6 assertAiCoderRunCheckpoint: a checkpoint whose contentHash is not the hash of its createdAt, payload and reason is rejected",
		"accepts a checkpoint whose content no longer matches its contentHash, so a tampered stored checkpoint resumes", []int{39}},
	{CancelAsFailure, "RUNTIME §22.3 step 1: a CANCELED error or a cancel intent ends the run cancelled, with no checkpoint",
		"ends a canceled run as failed with a failure checkpoint, as if the cancellation were an ordinary error", []int{5}},
	{ExecutionIDWallClock, "RUNTIME §3: every execution id comes from the injected executionIdFactory",
		"mints execution ids from the wall clock and the process ID instead of the injected factory, so two runs of one scenario differ", []int{14}},
	// Context pressure, compaction and how context and storage failures
	// are reported (items 25, 26, 36, 38, 42).
	{OverflowSkipCompaction, "RUNTIME §11 step 7: the first provider overflow prepares the round again with a forced provider_overflow checkpoint and compaction, then recounts",
		"recounts an overflowing request as it is, without the provider_overflow checkpoint and compaction", []int{25, 26}},
	{OverflowUnboundedRecount, "RUNTIME §11 step 7: a provider count still at or above hard input after the one forced compaction fails CONTEXT_BUDGET",
		"compacts and recounts again after every overflow instead of failing the round after the second, so a persistent overflow never ends the execution with a resumable failure checkpoint", []int{26}},
	{CompactionDropsTask, "CONTRACTS §12.5 compaction: a compaction keeps the policy and task items and adds the checkpoint",
		"drops the user task item with the rest of the history when it compacts, so later requests carry the task only inside the checkpoint's data", []int{36}},
	{ToolPressureSkipCheckpoint, "CONTRACTS §12.5: tool, research, file and diff items over max(16000, 10% of hard) tokens and 35% of the raw input force a tool_result_pressure checkpoint before the request",
		"never forces the tool_result_pressure checkpoint, so oversized accumulated tool output is only evicted or summarized before the next request", []int{38}},
	{BudgetAsProviderError, "RUNTIME §11 step 6, §8: a context budget error while preparing a round fails CONTEXT_BUDGET \"<code>: <message>\"",
		"reports a context assembly limit as PROVIDER_ERROR, as if the provider had failed", []int{42}},
	{PersistenceAsProviderError, "RUNTIME §21.1 step 7: a checkpoint store failure fails PERSISTENCE_ERROR \"Checkpoint persistence failed: <msg>\"",
		"reports a failed checkpoint put as PROVIDER_ERROR, as if the provider had failed", []int{42}},
	{CheckpointDropsEarlierEdits, "RUNTIME §21.1: every checkpoint's edits are the run's last 500 writes, so evidence accumulates across compactions",
		"records in each checkpoint only the writes made since the previous checkpoint, so a second compaction or a failure checkpoint loses the earlier write evidence", []int{26, 36}},
	// Prompt input, prompt hash and resume compatibility (items 15, 16, 17).
	{PromptAcceptLegacyFields, "CONTRACTS §9.3: a run request carrying promptHash, promptVersion, systemPrompt or workspaceInstructions is refused first (\"<field> is no longer accepted; provide the structured prompt configuration.\")",
		"drops the legacy free-form prompt fields from a run request and runs it, instead of refusing it", []int{15}},
	{PromptAcceptUnknownKeys, "CONTRACTS §9.1: a prompt configuration member outside the eight known fields is refused (\"prompt contains unknown field <key>.\")",
		"drops unknown members of the prompt configuration and runs the request, instead of refusing it", []int{15}},
	{PromptHashIgnoresRegistry, "RUNTIME §11.1: a changed registry snapshot (a lazy activation) re-assembles the prompt, so the prompt hash changes and a new prompt_snapshot is traced",
		"adopts a changed tool set without re-assembling the prompt, so a lazy activation leaves the prompt hash as it was", []int{16}},
	{PromptHashIgnoresPolicy, "CONTRACTS §9.5: the workspace-scope module embeds approvalProfile, networkAccess and writeAccess, so a policy declaration moves the prompt hash",
		"leaves the approval, network and write declarations out of the workspace-scope module, so changing them leaves the prompt hash as it was", []int{16, 17}},
	{ResumeIgnoresPromptChange, "RUNTIME §21.4: a resume whose promptHash or systemPromptHash differs from the checkpoint's fails CHECKPOINT_INCOMPATIBLE",
		"leaves promptHash and systemPromptHash out of the resume compatibility check, so a resume under another prompt configuration continues", []int{17}},
	// Items 18, 46, 47, 48.
	{ProbeTimestampInResumeCompat, "RUNTIME §10.3 step 8, CONTRACTS §11.2: capabilitiesHash reduces the probe evidence to {source, verified}, so a fresh probe time never breaks a compatible resume",
		"hashes the capability evidence with its observedAt, so a resume whose probe ran later is refused CHECKPOINT_INCOMPATIBLE", []int{18}},
	{ResumeIgnoresCapabilitiesHash, "RUNTIME §21.4: a checkpoint whose capabilitiesHash differs from the resuming run's fails CHECKPOINT_INCOMPATIBLE",
		"leaves capabilitiesHash out of the resume compatibility check, so a run resumes against a model whose probe answered differently", []int{18}},
	{GuardCountsIdenticalObservationAsProgress, "RUNTIME §17 step 6: the state version projects validations and the diff review without their causal sequence, so a repeated identical observation is no progress",
		"projects each validation and the diff review with its own sequence, so every identical re-run moves the state version and resets the identical-repeat guard", []int{46}},
	{GuardSkipToolCycle, "RUNTIME §18.3: a tool cycle of period 2 to 6 repeated on one state version is answered NO_PROGRESS without dispatch",
		"turns the tool-cycle guard off, so alternating successful calls reach the host again and again", []int{47}},
	{FinalizationOffersTools, "RUNTIME §19.3: a finalization turn is sent with an empty tool list",
		"sends the round's tool definitions in finalization turns too, so the model is offered tools it must not call", []int{48}},
	{FinalizationDispatchesToolCall, "RUNTIME §19.3: tool calls in a tool-free finalization turn are rejected (FINALIZATION_TOOL_CALLS_IGNORED) and never dispatched",
		"dispatches the tool calls of a finalization turn as in any other turn", []int{48}},
}

// All returns every fault, sorted by name. The caller may modify the
// result.
func All() []Fault {
	out := make([]Fault, len(registry))
	for i, f := range registry {
		f.Items = slices.Clone(f.Items)
		out[i] = f
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Names returns the names of every fault, sorted.
func Names() []string {
	all := All()
	out := make([]string, len(all))
	for i, f := range all {
		out[i] = f.Name
	}
	return out
}

// Lookup returns the fault called name.
func Lookup(name string) (Fault, bool) {
	for _, f := range registry {
		if f.Name == name {
			f.Items = slices.Clone(f.Items)
			return f, true
		}
	}
	return Fault{}, false
}
