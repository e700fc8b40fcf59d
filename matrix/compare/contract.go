package compare

import "strings"

// HostsChoice is what a mismatch names when no contract sentence governs
// the field that differs.
const HostsChoice = "host's choice — normalization missing (a conform bug: the transcript keeps a field the contract leaves to the host)"

// A rule ties a transcript field to the contract sentence that governs it.
type rule struct {
	// kind is the event kind ("final" for the final section, "" any).
	kind string
	// field is a prefix of the divergent field's path (go-cmp's, without
	// the leading dot: "Result.ErrorCode").
	field    string
	sentence string
}

// rules are tried in order; the first whose kind and field match names the
// sentence. The sentences are those of hosts/wire/CONTRACTS.md and
// PROTOCOL.md, with their section.
var rules = []rule{
	{"model_request", "Request.ToolNames", `PROTOCOL.md tools/list: "The active set starts as the catalog's enabledByDefault tools that the host backs and that the mode, the granted permissions ... allow. It grows only through catalog.search (search_tools), whose matches are activated for the next model turn."`},
	{"model_request", "", `The model request is the core's, built from what the host answered before it (PROTOCOL.md initialize and tools/list): it differs only after an earlier host answer did.`},
	{"tool_start", "", callOrder},
	{"tool_result", "Result.Name", callOrder},
	{"tool_result", "Result.ID", callOrder},
	{"tool_result", "Result.OK", `CONTRACTS.md Result envelope, ok: "true when the tool ran and produced its output; false for a refused or failed call".`},
	{"tool_result", "Result.ErrorCode", `CONTRACTS.md Error codes: "Use exactly the codes below" (and the tool page's error table).`},
	{"tool_result", "Result.CanonicalToolID", `CONTRACTS.md Result envelope, canonicalToolId: "the tool's canonical ID; for UNKNOWN_TOOL, the model name as called".`},
	{"tool_result", "Result.Trust", "CONTRACTS.md Result envelope, trust: \"`trusted` (state the host owns: writes, checkpoint, catalog), `workspace` (workspace content: reads, search, git) or `external` (command, validation, research output)\"."},
	{"tool_result", "Result.EffectsAuthority", `CONTRACTS.md Result envelope, effectsAuthority: exactly "host" with effects.`},
	{"tool_result", "Result.Effects.Writes", `CONTRACTS.md Evidence types, writes: "one per changed durable path, sorted by path, from the diff of the host's own before/after snapshots".`},
	{"tool_result", "Result.Effects.Inspected", `CONTRACTS.md Evidence types, inspectedPaths: "workspace-relative paths the call looked at, as the call named them".`},
	{"tool_result", "Result.Effects.Validations", `CONTRACTS.md Evidence types, validations: "one per check of validate_project: id = project.validate:<check>:<path> (path normalised, . for the root)".`},
	{"tool_result", "Result.Effects.Approval", `CONTRACTS.md Approval flow: not_required, granted or denied, as the profile and the approval/request answer decide.`},
	{"tool_result", "Result.Effects.DiffReviewed", `CONTRACTS.md Evidence types, diffReview: "for a complete, untruncated git_operation diff only".`},
	{"tool_result", "Result.Effects.Plan", `CONTRACTS.md Evidence types, plan: "{completed, inProgress, pending, decisions?} from update_checkpoint".`},
	{"tool_result", "Result.Effects.NextAction", `CONTRACTS.md Evidence types, nextAction: "the stored nextStep of update_checkpoint, when not blank".`},
	{"tool_result", "Result.Effects.Research", `CONTRACTS.md Evidence types, researchSources: "[{kind: fetch|search, url, summary, title?, truncated, contentHash}] from fetch_url and search_web".`},
	{"tool_result", "Result.Effects", `CONTRACTS.md Evidence types: "each allowed for a tool only when its capability is in the tool's effect-profile entry".`},
	// The other host has another event here, or none: the result itself
	// did not come, or the core refused it.
	{"tool_result", "Kind", resultEnvelope},
	{"tool_result", "", resultEnvelope},
	{"checkpoint", "", `CONTRACTS.md Checkpoint and resume: "A pause writes a checkpoint through store/put bound to a workspace fingerprint; a fresh host on the same storeDir and workspace resumes it".`},
	{"final", "Workspace", `CONTRACTS.md Evidence types, writes: every change of a durable path is "from the diff of the host's own before/after snapshots"; the harness snapshots the final workspace itself, and the tool pages say what each call writes.`},
	{"final", "Writes", `CONTRACTS.md Evidence types, writes: "one per changed durable path, sorted by path".`},
	{"final", "Checkpoints", `CONTRACTS.md Checkpoint and resume: "A store, trace or evidence-capture failure, or a put acknowledged without being durable, never lets a run complete".`},
	{"final", "Approvals", `CONTRACTS.md Approval flow: "Ask: send approval/request with requestId <runId>:<callId>" for the calls the profile asks about.`},
	{"final", "Status", runRules},
	{"final", "ErrorCode", runRules},
	{"final", "ExecutionStatuses", runRules},
	{"final", "ContextAudit", `CONTRACTS.md Context and prompt: every model request holds the task and the checkpoints the run saved.`},
	{"final", "NotApplicable", `PROTOCOL.md initialize: the host answers the canonical IDs it backs; a scenario calling a tool the host does not back is not applicable.`},
	{"final", "Faults", `The fault-proxy rules of the scenario fire on the host's messages (fixtures' "conform.faults").`},
}

// runRules governs the events the core emits from the host's answers.
const runRules = `CONTRACTS.md Run rules the core enforces: the core's events and final status follow from the host's answers before them.`

// coreKinds are the event kinds the core emits on its own.
var coreKinds = map[string]bool{"model": true, "model_retry": true, "compaction": true, "plan": true, "completion_rejected": true,
	"context_pressure": true, "token_ledger": true, "state": true}

// resultEnvelope governs a result one host gave and the other did not.
const resultEnvelope = "CONTRACTS.md Result envelope: \"`tool/execute` answers with one envelope\"; a canonicalToolId other than the tool's, or evidence outside the tool's profile, \"fails the run with `TOOL_EXECUTION`\" and no result is recorded."

// callOrder governs which calls run.
const callOrder = `CONTRACTS.md Batches: "The calls of one model turn are executed in emitted order and correlated by callId"; the scripted model makes the same calls unless an earlier result differed.`

// governing returns the sentence that governs field of an event of kind.
func governing(kind, field string) string {
	if coreKinds[kind] {
		return runRules
	}
	for _, r := range rules {
		if (r.kind == "" || r.kind == kind) && strings.HasPrefix(field, r.field) {
			return r.sentence
		}
	}
	return HostsChoice
}
