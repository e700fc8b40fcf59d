package checkpoint

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// absent deletes a member when used as a mutation value.
type absentValue struct{}

var absent = absentValue{}

// validFull returns the serialized full checkpoint.
func validFull() []byte {
	cp, err := Create(fullPayload(), ReasonPause, "2026-01-02T03:04:05.006Z")
	Expect(err).NotTo(HaveOccurred())
	b, err := Serialize(cp)
	Expect(err).NotTo(HaveOccurred())
	Expect(validateBoth(b)).To(BeEmpty())
	return b
}

var pathPart = regexp.MustCompile(`([^.\[\]]+)|\[(\d+)\]`)

// mutated returns the serialized full checkpoint with value set at path
// (like "workspace.activeFiles[0].kind"); absent deletes the member.
func mutated(path string, value any) []byte { return mutatedFrom(validFull(), path, value) }

// mutatedFrom is mutated applied to the serialized checkpoint data.
func mutatedFrom(data []byte, path string, value any) []byte {
	var doc any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	Expect(dec.Decode(&doc)).To(Succeed())
	parts := pathPart.FindAllStringSubmatch(path, -1)
	var set func(cur any, i int) any
	set = func(cur any, i int) any {
		p := parts[i]
		last := i == len(parts)-1
		if p[2] != "" {
			idx, _ := strconv.Atoi(p[2])
			arr := cur.([]any)
			if last {
				arr[idx] = value
			} else {
				arr[idx] = set(arr[idx], i+1)
			}
			return arr
		}
		obj := cur.(map[string]any)
		switch {
		case last && value == absent:
			delete(obj, p[1])
		case last:
			obj[p[1]] = value
		default:
			obj[p[1]] = set(obj[p[1]], i+1)
		}
		return obj
	}
	doc = set(doc, 0)
	out, err := json.Marshal(doc)
	Expect(err).NotTo(HaveOccurred())
	return out
}

func inv(path, message string) Issue {
	return Issue{Code: CodeInvalidField, Message: message, Path: path}
}

var hashMismatch = Issue{Code: CodeHashMismatch, Message: "Checkpoint content hash does not match its payload.", Path: "contentHash"}

// list builds a JSON array of n copies of item.
func list(n int, item any) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = item
	}
	return out
}

// researchList returns n distinct valid research sources.
func researchList(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = map[string]any{"contentHash": "sha256:x", "kind": "fetch", "sequence": 1, "summary": "s",
			"toolCallId": "call-1", "truncated": false, "url": fmt.Sprintf("https://example.com/%d", i)}
	}
	return out
}

var _ = Describe("Validate", func() {
	It("accepts a created checkpoint", func() {
		Expect(validateBoth(validFull())).To(BeNil())
	})

	It("rejects text that is not JSON", func() {
		issues := validateBoth([]byte(`{"runId":`))
		Expect(issues).To(HaveLen(1))
		Expect(issues[0].Path).To(Equal("$"))
		Expect(issues[0].Message).To(HavePrefix("Checkpoint cannot be snapshotted safely: "))
	})

	It("rejects a value that is not an object", func() {
		Expect(validateBoth([]byte(`[]`))).To(Equal([]Issue{inv("$", "Checkpoint must be an object.")}))
		Expect(validateBoth([]byte(`null`))).To(Equal([]Issue{inv("$", "Checkpoint must be an object.")}))
	})

	DescribeTable("reports each rule with the original path and message",
		func(path string, value any, want ...Issue) {
			Expect(validateBoth(mutated(path, value))).To(Equal(want))
		},
		// unknown and forbidden members
		Entry(nil, "extra", 1, inv("extra", "Unknown checkpoint field is not allowed.")),
		Entry("editsTotal is not a checkpoint field", "editsTotal", 3, inv("editsTotal", "Unknown checkpoint field is not allowed.")),
		Entry(nil, "plan.steps", []any{}, inv("plan.steps", "Unknown checkpoint field is not allowed.")),
		Entry(nil, "thinking", "x",
			inv("thinking", "Unknown checkpoint field is not allowed."),
			inv("thinking", "Checkpoint contains a forbidden raw reasoning or secret field.")),
		Entry(nil, "workspace.password", "x",
			inv("workspace.password", "Checkpoint contains a forbidden raw reasoning or secret field."),
			inv("workspace.password", "Unknown checkpoint field is not allowed.")),
		Entry(nil, "lastToolCalls[0].reasoning_content", "x",
			inv("lastToolCalls[0].reasoning_content", "Checkpoint contains a forbidden raw reasoning or secret field."),
			inv("lastToolCalls[0].reasoning_content", "Unknown checkpoint field is not allowed.")),
		Entry("forbidden names are found below unknown members", "extra", map[string]any{"list": []any{map[string]any{"accessToken": 1}}},
			inv("extra", "Unknown checkpoint field is not allowed."),
			inv("extra.list[0].accessToken", "Checkpoint contains a forbidden raw reasoning or secret field.")),
		// top-level fields
		Entry(nil, "schemaVersion", 2, Issue{Code: CodeUnsupportedSchema, Message: "Unsupported checkpoint schema version.", Path: "schemaVersion"}),
		Entry(nil, "runId", "", inv("runId", "runId must be a non-empty string.")),
		Entry("blank after JavaScript trim", "taskId", " \u00a0\ufeff", inv("taskId", "taskId must be a non-empty string.")),
		Entry(nil, "goal", absent, inv("goal", "goal must be a non-empty string.")),
		Entry(nil, "nextAction", 5, inv("nextAction", "nextAction must be a non-empty string.")),
		Entry(nil, "tokenLedgerRef", "\u2028", inv("tokenLedgerRef", "tokenLedgerRef must be a non-empty string.")),
		Entry(nil, "contentHash", "", inv("contentHash", "contentHash must be a non-empty string.")),
		Entry(nil, "createdAt", "2026-01-02T03:04:05Z", inv("createdAt", "createdAt must be a canonical ISO-8601 timestamp.")),
		Entry(nil, "reason", "later", inv("reason", "Checkpoint reason is invalid.")),
		Entry(nil, "approvals", []any{"a", 1}, inv("approvals", "approvals must be a string array.")),
		Entry(nil, "constraints", nil, inv("constraints", "constraints must be a string array.")),
		Entry(nil, "decisions", "x", inv("decisions", "decisions must be a string array.")),
		Entry(nil, "openProblems", absent, inv("openProblems", "openProblems must be a string array.")),
		Entry(nil, "seenToolCallIds", map[string]any{}, inv("seenToolCallIds", "seenToolCallIds must be a string array.")),
		Entry(nil, "phase", "done", inv("phase", "Checkpoint phase is invalid.")),
		// noProgress
		Entry(nil, "noProgress", nil, inv("noProgress", "noProgress must be an object when present.")),
		Entry(nil, "noProgress.extra", 1, inv("noProgress.extra", "Unknown checkpoint field is not allowed.")),
		Entry(nil, "noProgress.episodes", -1, inv("noProgress.episodes", "episodes must be a non-negative integer.")),
		Entry(nil, "noProgress.failedToolFamilies", "x", inv("noProgress.failedToolFamilies", "failedToolFamilies must be an array.")),
		Entry(nil, "noProgress.failedToolFamilies[0]", 5, inv("noProgress.failedToolFamilies[0]", "Failure family must be an object.")),
		Entry(nil, "noProgress.failedToolFamilies[0].key", "", inv("noProgress.failedToolFamilies[0].key", "Failure family key is required.")),
		Entry(nil, "noProgress.failedToolFamilies[0].count", 0, inv("noProgress.failedToolFamilies[0].count", "Failure family count must be positive.")),
		Entry(nil, "noProgress.hostStateVersions", map[string]any{}, inv("noProgress.hostStateVersions", "hostStateVersions must be an array when present.")),
		Entry(nil, "noProgress.hostStateVersions", list(129, map[string]any{"key": "k", "value": "v"}),
			inv("noProgress.hostStateVersions", "hostStateVersions must contain at most 128 entries.")),
		Entry(nil, "noProgress.hostStateVersions[0]", []any{}, inv("noProgress.hostStateVersions[0]", "Host state version must be an object.")),
		Entry(nil, "noProgress.hostStateVersions[0].key", "", inv("noProgress.hostStateVersions[0].key", "key is required.")),
		Entry(nil, "noProgress.hostStateVersions[0].value", nil, inv("noProgress.hostStateVersions[0].value", "value is required.")),
		Entry(nil, "noProgress.observationFamilies", 5, inv("noProgress.observationFamilies", "observationFamilies must be an array when present.")),
		Entry(nil, "noProgress.observationFamilies", list(129, map[string]any{"key": "k", "count": 1}),
			inv("noProgress.observationFamilies", "observationFamilies must contain at most 128 entries.")),
		Entry(nil, "noProgress.observationFamilies[0]", "x", inv("noProgress.observationFamilies[0]", "Observation family must be an object.")),
		Entry(nil, "noProgress.observationFamilies[0].key", " ", inv("noProgress.observationFamilies[0].key", "Observation family key is required.")),
		Entry(nil, "noProgress.observationFamilies[0].count", 1.5, inv("noProgress.observationFamilies[0].count", "Observation family count must be positive.")),
		Entry(nil, "noProgress.policy", "lenient", inv("noProgress.policy", "policy must be advisory or strict.")),
		Entry(nil, "noProgress.observationNudgeThresholds", []any{},
			inv("noProgress.observationNudgeThresholds", "observationNudgeThresholds must contain 1 to 8 thresholds when present.")),
		Entry(nil, "noProgress.observationNudgeThresholds", []any{2, 3, 4, 5, 6, 7, 8, 9, 10},
			inv("noProgress.observationNudgeThresholds", "observationNudgeThresholds must contain 1 to 8 thresholds when present.")),
		Entry(nil, "noProgress.observationNudgeThresholds", []any{1, 3}, inv("noProgress.observationNudgeThresholds[0]", "Thresholds must be integers >= 2.")),
		Entry(nil, "noProgress.observationNudgeThresholds", []any{3, 3}, inv("noProgress.observationNudgeThresholds[1]", "Threshold 3 is duplicated.")),
		Entry(nil, "noProgress.previousTool", absent, inv("noProgress.previousTool", "previousTool must be an object or null.")),
		Entry("a null previousTool is valid; only the hash breaks", "noProgress.previousTool", nil, hashMismatch),
		Entry(nil, "noProgress.previousTool.argumentsHash", "", inv("noProgress.previousTool.argumentsHash", "argumentsHash is required.")),
		Entry(nil, "noProgress.previousTool.name", "", inv("noProgress.previousTool.name", "name is required.")),
		Entry(nil, "noProgress.previousTool.repetitions", 0, inv("noProgress.previousTool.repetitions", "repetitions must be positive.")),
		Entry(nil, "noProgress.toolCycleSuffix", "x", inv("noProgress.toolCycleSuffix", "toolCycleSuffix must be an array when present.")),
		Entry(nil, "noProgress.toolCycleSuffix", list(13, map[string]any{"argumentsHash": "a", "name": "n"}),
			inv("noProgress.toolCycleSuffix", "toolCycleSuffix must contain at most 12 entries.")),
		Entry(nil, "noProgress.toolCycleSuffix[0]", nil, inv("noProgress.toolCycleSuffix[0]", "Tool cycle entry must be an object.")),
		Entry(nil, "noProgress.toolCycleSuffix[0].argumentsHash", "", inv("noProgress.toolCycleSuffix[0].argumentsHash", "argumentsHash is required.")),
		Entry(nil, "noProgress.toolCycleSuffix[0].name", "", inv("noProgress.toolCycleSuffix[0].name", "name is required.")),
		// acceptance criteria
		Entry(nil, "acceptanceCriteria", map[string]any{}, inv("acceptanceCriteria", "acceptanceCriteria must be an array.")),
		Entry(nil, "acceptanceCriteria[0]", "x", inv("acceptanceCriteria[0]", "Criterion must be an object.")),
		Entry(nil, "acceptanceCriteria[0].id", "", inv("acceptanceCriteria[0].id", "Criterion id is required.")),
		Entry(nil, "acceptanceCriteria[0].text", "", inv("acceptanceCriteria[0].text", "Criterion text is required.")),
		Entry(nil, "acceptanceCriteria[0].evidenceIds", "x", inv("acceptanceCriteria[0].evidenceIds", "evidenceIds must be a string array.")),
		Entry(nil, "acceptanceCriteria[0].required", "yes", inv("acceptanceCriteria[0].required", "Criterion required must be boolean.")),
		Entry(nil, "acceptanceCriteria[0].status", "done", inv("acceptanceCriteria[0].status", "Criterion status is invalid.")),
		// compatibility
		Entry(nil, "compatibility", nil, inv("compatibility", "compatibility is required.")),
		Entry("an array passes the object test as in JavaScript", "compatibility", []any{},
			inv("compatibility.capabilitiesHash", "capabilitiesHash is required."),
			inv("compatibility.effectCapabilitiesHash", "effectCapabilitiesHash is required."),
			inv("compatibility.modelIdentity", "modelIdentity is required."),
			inv("compatibility.promptHash", "promptHash is required."),
			inv("compatibility.promptVersion", "promptVersion is required."),
			inv("compatibility.registrySnapshotHash", "registrySnapshotHash is required."),
			inv("compatibility.systemPromptHash", "systemPromptHash is required."),
			inv("compatibility.taskContractHash", "taskContractHash is required."),
			inv("compatibility.activeToolNames", "activeToolNames must be a string array.")),
		Entry(nil, "compatibility.promptHash", "", inv("compatibility.promptHash", "promptHash is required.")),
		Entry(nil, "compatibility.activeToolNames", []any{1}, inv("compatibility.activeToolNames", "activeToolNames must be a string array.")),
		// completion evidence and delivery
		Entry(nil, "completionEvidence", nil, inv("completionEvidence", "completionEvidence is required.")),
		Entry(nil, "completionEvidence.diffReview", absent, inv("completionEvidence.diffReview", "diffReview must be an object or null.")),
		Entry(nil, "completionEvidence.diffReview.diffHash", "", inv("completionEvidence.diffReview.diffHash", "diffHash is required.")),
		Entry(nil, "completionEvidence.diffReview.sequence", -1, inv("completionEvidence.diffReview.sequence", "sequence must be non-negative.")),
		Entry(nil, "completionEvidence.diffReview.workspaceFingerprint", "", inv("completionEvidence.diffReview.workspaceFingerprint", "workspaceFingerprint is required.")),
		Entry(nil, "delivery", absent, inv("delivery.attachmentsDelivered", "delivery.attachmentsDelivered must be boolean.")),
		Entry(nil, "delivery.attachmentsDelivered", "yes", inv("delivery.attachmentsDelivered", "delivery.attachmentsDelivered must be boolean.")),
		Entry(nil, "delivery.extra", 1, inv("delivery.extra", "Unknown checkpoint field is not allowed.")),
		// plan
		Entry(nil, "plan", nil, inv("plan", "plan is required.")),
		Entry(nil, "plan.completed", nil, inv("plan.completed", "plan.completed must be a string array.")),
		Entry(nil, "plan.pending", []any{true}, inv("plan.pending", "plan.pending must be a string array.")),
		Entry(nil, "plan.inProgress", absent, inv("plan.inProgress", "plan.inProgress must be a string or null.")),
		Entry(nil, "plan.inProgress", 3, inv("plan.inProgress", "plan.inProgress must be a string or null.")),
		// research sources
		Entry(nil, "researchSources", map[string]any{}, inv("researchSources", "researchSources must be an array when present.")),
		Entry(nil, "researchSources", researchList(25), inv("researchSources", "researchSources must contain at most 24 entries.")),
		Entry(nil, "researchSources[0]", nil, inv("researchSources[0]", "Research source must be an object.")),
		Entry(nil, "researchSources[0].kind", "crawl", inv("researchSources[0].kind", "Research source kind is invalid.")),
		Entry(nil, "researchSources[0].sequence", -1, inv("researchSources[0].sequence", "Research source sequence must be non-negative.")),
		Entry(nil, "researchSources[0].summary", "", inv("researchSources[0].summary", "Research source summary must contain 1-1200 characters.")),
		Entry(nil, "researchSources[0].summary", strings.Repeat("a", 1201), inv("researchSources[0].summary", "Research source summary must contain 1-1200 characters.")),
		Entry("1200 code points outside the BMP fit", "researchSources[0].summary", strings.Repeat("\U0001F600", 1200), hashMismatch),
		Entry(nil, "researchSources[0].title", strings.Repeat("é", 513), inv("researchSources[0].title", "Research source title must contain at most 512 characters.")),
		Entry(nil, "researchSources[0].title", 5, inv("researchSources[0].title", "Research source title must contain at most 512 characters.")),
		Entry(nil, "researchSources[0].toolCallId", "", inv("researchSources[0].toolCallId", "Research source toolCallId is required.")),
		Entry(nil, "researchSources[0].truncated", "no", inv("researchSources[0].truncated", "Research source truncated must be boolean.")),
		Entry(nil, "researchSources[0].url", "ftp://example.com", inv("researchSources[0].url", "Research source URL must be a bounded public HTTP(S) URL.")),
		Entry("the URL bound counts UTF-16 units", "researchSources[0].url", "https://x/"+strings.Repeat("\U0001F600", 2044),
			inv("researchSources[0].url", "Research source URL must be a bounded public HTTP(S) URL.")),
		Entry(nil, "researchSources[0].contentHash", "",
			inv("researchSources[0].contentHash", "Research source contentHash must be a non-empty string or null."),
			inv("researchSources[0].contentHash", "Fetched research sources require a content hash.")),
		Entry(nil, "researchSources[0].contentHash", nil, inv("researchSources[0].contentHash", "Fetched research sources require a content hash.")),
		Entry(nil, "researchSources", list(2, researchList(1)[0]), inv("researchSources[1].url", "Research source kind and URL pairs must be unique.")),
		// workspace
		Entry(nil, "workspace", nil, inv("workspace", "workspace is required.")),
		Entry(nil, "workspace.root", 5, inv("workspace.root", "workspace.root must be a string or null.")),
		Entry(nil, "workspace.root", absent, inv("workspace.root", "workspace.root must be a string or null.")),
		Entry(nil, "workspace.dirtyStateSummary", absent, inv("workspace.dirtyStateSummary", "workspace.dirtyStateSummary must be a string or null.")),
		Entry(nil, "workspace.stateFingerprint", "", inv("workspace.stateFingerprint", "workspace.stateFingerprint must be a non-empty string or null.")),
		Entry(nil, "workspace.instructions", nil, inv("workspace.instructions", "workspace.instructions must be a string array.")),
		Entry(nil, "workspace.activeFiles", map[string]any{}, inv("workspace.activeFiles", "workspace.activeFiles must be an array.")),
		Entry(nil, "workspace.activeFiles[0]", "x", inv("workspace.activeFiles[0].path", "Active file path is required.")),
		Entry(nil, "workspace.activeFiles[0].path", "", inv("workspace.activeFiles[0].path", "Active file path is required.")),
		Entry(nil, "workspace.activeFiles[0].extra", 1, inv("workspace.activeFiles[0].extra", "Unknown checkpoint field is not allowed.")),
		Entry(nil, "workspace.activeFiles[0].contentHash", "",
			inv("workspace.activeFiles[0].contentHash", "contentHash must be a non-empty string or null."),
			inv("workspace.activeFiles[0].contentHash", "file entries require a content hash.")),
		Entry(nil, "workspace.activeFiles[0].kind", "socket", inv("workspace.activeFiles[0].kind", "kind must be a supported workspace entry kind.")),
		Entry(nil, "workspace.activeFiles[0].kind", "directory", inv("workspace.activeFiles[0].contentHash", "directory entries cannot carry a content hash.")),
		Entry(nil, "workspace.activeFiles[0].startLine", 0, inv("workspace.activeFiles[0].startLine", "startLine must be a positive integer.")),
		Entry(nil, "workspace.activeFiles[0].endLine", 0.5, inv("workspace.activeFiles[0].endLine", "endLine must be a positive integer.")),
		Entry(nil, "workspace.activeFiles[0].startLine", 10, inv("workspace.activeFiles[0].endLine", "endLine must not precede startLine.")),
		Entry(nil, "workspace.activeFiles[0].reason", "", inv("workspace.activeFiles[0].reason", "reason must be a non-empty string when present.")),
		// edits
		Entry(nil, "edits", "x", inv("edits", "edits must be an array.")),
		Entry(nil, "edits[0]", 1, inv("edits[0]", "Edit must be an object.")),
		Entry(nil, "edits[0].path", "", inv("edits[0].path", "Edit path is required.")),
		Entry(nil, "edits[0].toolCallId", "", inv("edits[0].toolCallId", "Edit toolCallId is required.")),
		Entry(nil, "edits[0].sequence", -1, inv("edits[0].sequence", "Edit sequence must be non-negative.")),
		Entry(nil, "edits[0].beforeHash", "",
			inv("edits[0].beforeHash", "beforeHash must be a non-empty string or null."),
			inv("edits[0].afterHash", "Edit kinds and hashes must prove a valid workspace state change.")),
		Entry(nil, "edits[0].afterHash", 1,
			inv("edits[0].afterHash", "afterHash must be a non-empty string or null."),
			inv("edits[0].afterHash", "Edit kinds and hashes must prove a valid workspace state change.")),
		Entry(nil, "edits[0].workspaceFingerprint", "", inv("edits[0].workspaceFingerprint", "workspaceFingerprint is required.")),
		Entry("one kind without the other", "edits[0].beforeKind", absent,
			inv("edits[0].afterHash", "Edit kinds and hashes must prove a valid workspace state change.")),
		Entry("a missing entry with a hash", "edits[0].beforeHash", "sha256:x",
			inv("edits[0].afterHash", "Edit kinds and hashes must prove a valid workspace state change.")),
		// execution budget
		Entry(nil, "executionBudget", nil, inv("executionBudget", "executionBudget is required.")),
		Entry(nil, "executionBudget.deadlinePolicy", "wall_clock", inv("executionBudget.deadlinePolicy", "deadlinePolicy must be per_execution_segment.")),
		Entry(nil, "executionBudget.persistenceGraceMs", 0, inv("executionBudget.persistenceGraceMs", "persistenceGraceMs must be a positive integer.")),
		Entry(nil, "executionBudget.segmentDeadlineMs", 1.5, inv("executionBudget.segmentDeadlineMs", "segmentDeadlineMs must be a positive integer.")),
		// validation
		Entry(nil, "validation", map[string]any{}, inv("validation", "validation must be an array.")),
		Entry(nil, "validation[0]", nil, inv("validation[0]", "Validation must be an object.")),
		Entry(nil, "validation[0].id", "", inv("validation[0].id", "Validation id is required.")),
		Entry(nil, "validation[0].detail", "", inv("validation[0].detail", "Validation detail is required.")),
		Entry(nil, "validation[0].sequence", -1, inv("validation[0].sequence", "Validation sequence must be non-negative.")),
		Entry(nil, "validation[0].status", "ok", inv("validation[0].status", "Validation status is invalid.")),
		Entry(nil, "validation[0].paths", "x",
			inv("validation[0].paths", "Validation paths must be a string array."),
			inv("validation[0].paths", "Path-scoped validation requires at least one path.")),
		Entry(nil, "validation[0].paths", []any{""}, inv("validation[0].paths", "Validation paths must be non-empty strings.")),
		Entry(nil, "validation[0].paths", []any{}, inv("validation[0].paths", "Path-scoped validation requires at least one path.")),
		Entry(nil, "validation[0].scope", "repo", inv("validation[0].scope", "Validation scope is invalid.")),
		Entry(nil, "validation[0].workspaceFingerprint", "", inv("validation[0].workspaceFingerprint", "workspaceFingerprint is required.")),
		Entry(nil, "validation[0].command", "", inv("validation[0].command", "Validation command must be a non-empty string when present.")),
		// last tool calls
		Entry(nil, "lastToolCalls", map[string]any{}, inv("lastToolCalls", "lastToolCalls must be an array.")),
		Entry(nil, "lastToolCalls[0]", "x", inv("lastToolCalls[0]", "Tool call must be an object.")),
		Entry(nil, "lastToolCalls[0].toolCallId", "", inv("lastToolCalls[0].toolCallId", "toolCallId is required.")),
		Entry(nil, "lastToolCalls[0].name", "", inv("lastToolCalls[0].name", "Tool name is required.")),
		Entry(nil, "lastToolCalls[0].argumentsHash", "", inv("lastToolCalls[0].argumentsHash", "argumentsHash is required.")),
		Entry(nil, "lastToolCalls[0].argumentDigest", "", inv("lastToolCalls[0].argumentDigest", "argumentDigest must be non-empty when present.")),
		Entry(nil, "lastToolCalls[0].idempotencyKey", " ", inv("lastToolCalls[0].idempotencyKey", "idempotencyKey must be non-empty when present.")),
		Entry(nil, "lastToolCalls[0].outcome", "ok", inv("lastToolCalls[0].outcome", "Tool outcome is invalid.")),
		// pending approvals
		Entry(nil, "pendingApprovals", map[string]any{}, inv("pendingApprovals", "pendingApprovals must be an array.")),
		Entry(nil, "pendingApprovals[0]", 1, inv("pendingApprovals[0]", "Pending approval must be an object.")),
		Entry(nil, "pendingApprovals[0].requestId", "", inv("pendingApprovals[0].requestId", "Approval requestId is required.")),
		Entry(nil, "pendingApprovals[0].toolCallId", "", inv("pendingApprovals[0].toolCallId", "Approval toolCallId is required.")),
		Entry(nil, "pendingApprovals[0].toolName", "", inv("pendingApprovals[0].toolName", "Approval toolName is required.")),
		Entry(nil, "pendingApprovals[0].returnPhase", absent, inv("pendingApprovals[0].returnPhase", "Approval returnPhase is invalid.")),
		// totals
		Entry(nil, "totals", nil, inv("totals", "totals is required.")),
		Entry(nil, "totals.toolCalls", -1, inv("totals.toolCalls", "toolCalls must be a non-negative integer.")),
		Entry(nil, "totals.compactionCount", 1.5, inv("totals.compactionCount", "compactionCount must be a non-negative integer.")),
		Entry(nil, "totals.modelTurns", "1", inv("totals.modelTurns", "modelTurns must be a non-negative integer.")),
		// relational rules
		Entry(nil, "seenToolCallIds", []any{"call-1", "call-2", "call-1"}, inv("seenToolCallIds", "seenToolCallIds must not contain duplicates.")),
		Entry(nil, "acceptanceCriteria[0].evidenceIds", []any{}, inv("acceptanceCriteria[0].evidenceIds", "A satisfied criterion requires evidence.")),
		Entry(nil, "acceptanceCriteria[0].evidenceIds", []any{"call-9"}, inv("acceptanceCriteria[0].evidenceIds[0]", "Criterion evidence is absent from seenToolCallIds.")),
		Entry(nil, "compatibility.activeToolNames", []any{"a", "a"}, inv("compatibility.activeToolNames", "activeToolNames must not contain duplicates.")),
		Entry(nil, "edits[0].toolCallId", "call-9", inv("edits[0].toolCallId", "Edit toolCallId is absent from seenToolCallIds.")),
		Entry(nil, "edits[0].sequence", 3, inv("edits[0].sequence", "Edit sequence exceeds totals.toolCalls.")),
		Entry(nil, "validation[0].sequence", 3, inv("validation[0].sequence", "Validation sequence exceeds totals.toolCalls.")),
		Entry(nil, "researchSources[0].toolCallId", "call-9", inv("researchSources[0].toolCallId", "Research source toolCallId is absent from seenToolCallIds.")),
		Entry(nil, "researchSources[0].sequence", 3, inv("researchSources[0].sequence", "Research source sequence exceeds totals.toolCalls.")),
		Entry(nil, "lastToolCalls[0].toolCallId", "call-9", inv("lastToolCalls[0].toolCallId", "Tool call is absent from seenToolCallIds.")),
		Entry(nil, "pendingApprovals[0].toolCallId", "call-9", inv("pendingApprovals[0].toolCallId", "Approval toolCallId is absent from seenToolCallIds.")),
		// integrity
		Entry("unsanitized text", "goal", "password=hunter2", inv("$", "Checkpoint contains text that was not sanitized before persistence.")),
		Entry("a changed payload", "goal", "fix the other bug", hashMismatch),
		Entry("a changed reason", "reason", "failure", hashMismatch),
		Entry("a changed creation time", "createdAt", "2026-01-02T03:04:05.007Z", hashMismatch),
		Entry("a changed hash", "contentHash", "sha256:0000", hashMismatch),
	)

	Describe("the order of the checks (CONTRACTS §11.6 step 7)", func() {
		shapeFault, shapeIssue := func(b []byte) []byte { return mutatedFrom(b, "goal", "") }, inv("goal", "goal must be a non-empty string.")
		relationFault := func(b []byte) []byte { return mutatedFrom(b, "seenToolCallIds", []any{"call-1", "call-2", "call-1"}) }
		relationIssue := inv("seenToolCallIds", "seenToolCallIds must not contain duplicates.")

		It("runs the relational checks only when every field shape is valid", func() {
			Expect(validateBoth(relationFault(validFull()))).To(Equal([]Issue{relationIssue}), "the relational fault alone is found")
			Expect(validateBoth(shapeFault(relationFault(validFull())))).To(Equal([]Issue{shapeIssue}))
		})

		It("counts an unknown member as a shape fault that holds the relational checks back", func() {
			b := mutatedFrom(relationFault(validFull()), "extra", 1)
			Expect(validateBoth(b)).To(Equal([]Issue{inv("extra", "Unknown checkpoint field is not allowed.")}))
		})

		It("checks sanitization and the content hash only when the relations hold", func() {
			tampered := mutatedFrom(relationFault(validFull()), "goal", "password=hunter2")
			Expect(validateBoth(tampered)).To(Equal([]Issue{relationIssue}))
		})
	})

	It("reports duplicate criterion and approval request IDs", func() {
		crit := fullPayload().AcceptanceCriteria[0]
		Expect(validateBoth(mutated("acceptanceCriteria", list(2, crit)))).To(Equal([]Issue{inv("acceptanceCriteria", "Acceptance criterion ids must be unique.")}))
		ap := fullPayload().PendingApprovals[0]
		Expect(validateBoth(mutated("pendingApprovals", list(2, ap)))).To(Equal([]Issue{inv("pendingApprovals", "Pending approval request ids must be unique.")}))
	})

	It("does not let the caller's later changes reach the result", func() {
		b := validFull()
		issues := validateBoth(b)
		b[10] = 'x'
		Expect(issues).To(BeNil())
	})
})

var _ = Describe("Assert", func() {
	It("returns a fresh checkpoint equal to the serialized one", func() {
		b := validFull()
		cp, err := assertBoth(b)
		Expect(err).NotTo(HaveOccurred())
		again, err := Serialize(cp)
		Expect(err).NotTo(HaveOccurred())
		Expect(again).To(Equal(b))
		Expect(cp.Payload).To(Equal(Sanitize(fullPayload())))
	})

	It("joins the issues as \"<path>: <message>\" with spaces", func() {
		_, err := assertBoth(mutated("goal", ""))
		var ie *IntegrityError
		Expect(err).To(BeAssignableToTypeOf(ie))
		Expect(err).To(MatchError("goal: goal must be a non-empty string."))
		_, err = assertBoth(mutated("workspace.activeFiles[0].contentHash", ""))
		Expect(err).To(MatchError("workspace.activeFiles[0].contentHash: contentHash must be a non-empty string or null. " +
			"workspace.activeFiles[0].contentHash: file entries require a content hash."))
		Expect(err.(*IntegrityError).Issues).To(HaveLen(2))
	})

	It("rejects tampering", func() {
		_, err := assertBoth(mutated("goal", "something else"))
		Expect(err).To(MatchError("contentHash: Checkpoint content hash does not match its payload."))
	})

	It("rejects text that is not JSON", func() {
		_, err := assertBoth([]byte("{"))
		Expect(err).To(MatchError(HavePrefix("Checkpoint cannot be snapshotted safely: ")))
	})
})
