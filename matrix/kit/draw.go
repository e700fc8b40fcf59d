package kit

import (
	"fmt"

	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/prompt"
	"pgregory.net/rapid"
)

// This file draws the seeded checkpoints of item 39: valid payloads whose
// texts mix characters canonical JSON treats specially and whose redacted
// fields carry credentials, built by the core's own checkpoint.Create.

// A genCheckpoint is one drawn checkpoint: its canonical bytes (what the
// harness puts), the decoded checkpoint and the secret markers its
// payload carried before redaction.
type genCheckpoint struct {
	cp      *checkpoint.Checkpoint
	bytes   []byte
	secrets []string
}

// GoString is what rapid prints of a drawn checkpoint: its canonical
// JSON.
func (g genCheckpoint) GoString() string { return "checkpoint " + string(g.bytes) }

// cpTextRunes mixes plain letters with characters that canonical JSON
// escapes or orders specially, and that encoding/json escapes as HTML (<,
// >, &, U+2028, U+2029).
func cpTextRunes() *rapid.Generator[rune] {
	return rapid.OneOf(
		rapid.RuneFrom([]rune("abcxyz ABC0189.-_/\"\\<>&\u2028\u2029\t\n\x01\x7fé")),
		rapid.Map(rapid.Int32Range(0xe000, 0xffff), func(r int32) rune { return r }),
		rapid.Map(rapid.Int32Range(0x10000, 0x10ffff), func(r int32) rune { return r }),
	)
}

// cpAlnum draws the letters and digits of IDs.
func cpAlnum() *rapid.Generator[rune] {
	return rapid.RuneFrom([]rune("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0123456789"))
}

// cpBuilder draws the parts of one checkpoint and remembers its secrets.
type cpBuilder struct {
	t       *rapid.T
	secrets []string
	n       int
}

func (b *cpBuilder) text(label string) string {
	return "t" + rapid.StringOfN(cpTextRunes(), 0, 8, -1).Draw(b.t, label)
}

func (b *cpBuilder) id(label string) string {
	b.n++
	return fmt.Sprintf("%s%d", b.text(label), b.n)
}

func (b *cpBuilder) hash(label string) string { return "sha256:" + b.text(label) }

func (b *cpBuilder) int(label string, lo, hi int64) int64 {
	return rapid.Int64Range(lo, hi).Draw(b.t, label)
}

// secretText is a text with a credential inside it (CONTRACTS §11.3); the
// marker is what redaction must remove.
func (b *cpBuilder) secretText(label string) string {
	marker := "ZQX" + rapid.StringOfN(cpAlnum(), 12, 16, -1).Draw(b.t, label+".marker")
	b.secrets = append(b.secrets, marker)
	var secret string
	switch rapid.IntRange(0, 2).Draw(b.t, label+".form") {
	case 0:
		secret = "Bearer " + marker
	case 1:
		secret = "sk-" + marker
	default:
		secret = rapid.SampledFrom([]string{"password", "token", "api_key"}).Draw(b.t, label+".label") + "=" + marker
	}
	return b.text(label+".before") + " " + secret + " " + b.text(label+".after")
}

func (b *cpBuilder) secretTexts(label string) []string {
	out := make([]string, rapid.IntRange(0, 2).Draw(b.t, label+".len"))
	for i := range out {
		out[i] = b.secretText(fmt.Sprintf("%s[%d]", label, i))
	}
	return out
}

// genCheckpointDoc draws a valid checkpoint of run runID covering the
// members a store must keep byte for byte: texts, sorted lists, edits,
// tool calls, validations, the tool-cycle suffix and the compatibility
// hashes.
func genCheckpointDoc(runID string) *rapid.Generator[genCheckpoint] {
	return rapid.Custom(func(t *rapid.T) genCheckpoint { return drawCheckpoint(t, runID) })
}

func drawCheckpoint(t *rapid.T, runID string) genCheckpoint {
	b := &cpBuilder{t: t}
	seen := make([]string, rapid.IntRange(1, 4).Draw(t, "seen.len"))
	for i := range seen {
		seen[i] = b.id("seen")
	}
	toolCalls := b.int("totals.toolCalls", 0, 50)
	p := checkpoint.Payload{
		Approvals: b.secretTexts("approvals"), Constraints: b.secretTexts("constraints"), Decisions: b.secretTexts("decisions"),
		Goal: b.secretText("goal"), NextAction: b.secretText("nextAction"), OpenProblems: b.secretTexts("openProblems"),
		Phase: rapid.SampledFrom(checkpoint.Phases()).Draw(t, "phase"), RunID: runID, SchemaVersion: checkpoint.SchemaVersion,
		SeenToolCallIDs: seen, TaskID: b.id("taskId"), TokenLedgerRef: b.text("tokenLedgerRef"),
		Totals:          checkpoint.Totals{CompactionCount: b.int("compactions", 0, 20), ModelTurns: b.int("turns", 0, 20), ToolCalls: toolCalls},
		ExecutionBudget: checkpoint.ExecutionBudget{DeadlinePolicy: checkpoint.DeadlinePerExecutionSegment, PersistenceGraceMs: b.int("grace", 1, 60000), SegmentDeadlineMs: b.int("segment", 1, 1<<40)},
		Plan:            checkpoint.Plan{Completed: b.secretTexts("plan.completed"), Pending: b.secretTexts("plan.pending")},
		Edits:           []checkpoint.Edit{}, LastToolCalls: []checkpoint.ToolCallRecord{}, PendingApprovals: []checkpoint.PendingApproval{},
		Validation: []checkpoint.ValidationRecord{}, AcceptanceCriteria: []checkpoint.Criterion{},
		Workspace: checkpoint.Workspace{Instructions: b.secretTexts("workspace.instructions"), ActiveFiles: []checkpoint.ActiveFileRecord{}},
	}
	p.Compatibility = checkpoint.Compatibility{ActiveToolNames: []string{}, Integrity: prompt.Integrity{
		CapabilitiesHash: b.hash("capabilitiesHash"), EffectCapabilitiesHash: b.hash("effectCapabilitiesHash"),
		ModelIdentity: b.text("modelIdentity"), PromptHash: b.hash("promptHash"), PromptVersion: b.text("promptVersion"),
		RegistrySnapshotHash: b.hash("registrySnapshotHash"), SystemPromptHash: b.hash("systemPromptHash"), TaskContractHash: b.hash("taskContractHash"),
	}}
	for range rapid.IntRange(0, 4).Draw(t, "tools.len") {
		p.Compatibility.ActiveToolNames = append(p.Compatibility.ActiveToolNames, b.id("tool"))
	}
	for range rapid.IntRange(0, 3).Draw(t, "edits.len") {
		before := b.hash("edit.before")
		after := b.hash("edit.after") + "!" // differs from any before hash
		p.Edits = append(p.Edits, checkpoint.Edit{Path: b.text("edit.path"), Sequence: b.int("edit.seq", 0, toolCalls),
			ToolCallID: rapid.SampledFrom(seen).Draw(t, "edit.call"), WorkspaceFingerprint: b.text("edit.fp"), BeforeHash: &before, AfterHash: &after})
	}
	for range rapid.IntRange(0, 3).Draw(t, "calls.len") {
		p.LastToolCalls = append(p.LastToolCalls, checkpoint.ToolCallRecord{ArgumentsHash: b.hash("args"), Name: b.text("name"),
			ToolCallID: rapid.SampledFrom(seen).Draw(t, "call.id"), IdempotencyKey: b.text("idem"),
			Outcome: rapid.SampledFrom([]checkpoint.ToolOutcome{checkpoint.OutcomeFailed, checkpoint.OutcomeSucceeded, checkpoint.OutcomeUnknown}).Draw(t, "outcome")})
	}
	for range rapid.IntRange(0, 2).Draw(t, "validation.len") {
		p.Validation = append(p.Validation, checkpoint.ValidationRecord{Detail: b.secretText("validation.detail"), ID: b.id("validation"),
			Sequence: b.int("validation.seq", 0, toolCalls), Scope: checkpoint.ScopeWorkspace, WorkspaceFingerprint: b.text("validation.fp"),
			Status: rapid.SampledFrom([]checkpoint.ValidationStatus{checkpoint.ValidationFailed, checkpoint.ValidationPassed}).Draw(t, "validation.status")})
	}
	if rapid.Bool().Draw(t, "fingerprint") {
		fp := b.text("fingerprint")
		p.Workspace.StateFingerprint = &fp
	}
	if rapid.Bool().Draw(t, "noProgress") {
		np := &checkpoint.NoProgress{Episodes: b.int("episodes", 0, 5), FailedToolFamilies: []checkpoint.FamilyCount{}, ToolCycleSuffix: []checkpoint.CycleEntry{}}
		for range rapid.IntRange(0, 6).Draw(t, "cycle.len") {
			np.ToolCycleSuffix = append(np.ToolCycleSuffix, checkpoint.CycleEntry{ArgumentsHash: b.hash("cycle.args"), Name: b.text("cycle.name")})
		}
		p.NoProgress = np
	}
	ms := rapid.Int64Range(0, 4102444800000).Draw(t, "createdAt")
	cp, err := checkpoint.Create(p, rapid.SampledFrom(checkpoint.Reasons()).Draw(t, "reason"), checkpoint.FormatTimestamp(ms))
	if err != nil {
		t.Fatalf("the harness drew a checkpoint the core refuses: %v", err)
	}
	data, err := checkpoint.Serialize(cp)
	if err != nil {
		t.Fatalf("the harness cannot serialize its checkpoint: %v", err)
	}
	return genCheckpoint{cp: cp, bytes: data, secrets: b.secrets}
}
