package checkpoint

import (
	"fmt"

	"pgregory.net/rapid"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/prompt"
)

// A generated case: a valid payload whose every redacted field carries a
// secret, the secrets, the reason and the creation time.
type genCase struct {
	payload   Payload
	secrets   []string
	reason    Reason
	createdAt string
}

var (
	// textRunes mixes plain letters with characters that canonical JSON
	// and UTF-16 ordering handle specially.
	textRunes = rapid.OneOf(
		rapid.RuneFrom([]rune("abcxyz ABC0189.-_/\"\\<>&\u2028\u2029\t\n\x01\x7fé")),
		rapid.Map(rapid.Int32Range(0xe000, 0xffff), func(r int32) rune { return r }),
		rapid.Map(rapid.Int32Range(0x10000, 0x10ffff), func(r int32) rune { return r }),
	)
	alnum = rapid.RuneFrom([]rune("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0123456789"))
)

// builder draws the parts of a case and remembers the secrets.
type builder struct {
	t       *rapid.T
	secrets []string
	n       int
}

// text draws a non-blank text.
func (b *builder) text(label string) string {
	return "t" + rapid.StringOfN(textRunes, 0, 8, -1).Draw(b.t, label)
}

// id draws a non-blank identifier, unique within one case.
func (b *builder) id(label string) string {
	b.n++
	return fmt.Sprintf("%s%d", b.text(label), b.n)
}

// secret draws a credential in one of the forms of CONTRACTS §11.3 and
// records its secret part.
func (b *builder) secret(label string) string {
	marker := "ZQX" + rapid.StringOfN(alnum, 12, 16, -1).Draw(b.t, label+".marker")
	b.secrets = append(b.secrets, marker)
	form := rapid.IntRange(0, 3).Draw(b.t, label+".form")
	switch form {
	case 0:
		return rapid.SampledFrom([]string{"Bearer ", "bearer  ", "BEARER\t"}).Draw(b.t, label+".bearer") + marker
	case 1:
		return rapid.SampledFrom([]string{"sk-", "key-"}).Draw(b.t, label+".prefix") + marker
	default:
		l := rapid.SampledFrom([]string{"password", "secret", "token", "api_key", "api-key", "apikey", "API_KEY", "Token"}).Draw(b.t, label+".label")
		sep := rapid.SampledFrom([]string{"=", ":", " = ", ": "}).Draw(b.t, label+".sep")
		return l + sep + marker
	}
}

// secretText is a text with a secret inside it.
func (b *builder) secretText(label string) string {
	return b.text(label+".before") + " " + b.secret(label) + " " + b.text(label+".after")
}

func (b *builder) secretTexts(label string) []string {
	n := rapid.IntRange(0, 3).Draw(b.t, label+".len")
	out := make([]string, n)
	for i := range out {
		out[i] = b.secretText(fmt.Sprintf("%s[%d]", label, i))
	}
	return out
}

func (b *builder) optSecretText(label string) *string {
	if !rapid.Bool().Draw(b.t, label+".present") {
		return nil
	}
	s := b.secretText(label)
	return &s
}

func (b *builder) hash(label string) string { return "sha256:" + b.text(label) }

func (b *builder) optHash(label string) *string {
	if rapid.Bool().Draw(b.t, label+".null") {
		return nil
	}
	h := b.hash(label)
	return &h
}

func (b *builder) int(label string, lo, hi int64) int64 {
	return rapid.Int64Range(lo, hi).Draw(b.t, label)
}

func (b *builder) pick(label string, ids []string) string {
	return rapid.SampledFrom(ids).Draw(b.t, label)
}

// genCheckpointCase draws a valid payload covering every field of
// CONTRACTS §11.2.
var genCheckpointCase = rapid.Custom(func(t *rapid.T) genCase {
	b := &builder{t: t}
	seen := make([]string, rapid.IntRange(0, 5).Draw(t, "seen.len"))
	for i := range seen {
		seen[i] = b.id("seen")
	}
	toolCalls := b.int("totals.toolCalls", 0, 50)
	p := Payload{
		Approvals:       b.secretTexts("approvals"),
		Constraints:     b.secretTexts("constraints"),
		Decisions:       b.secretTexts("decisions"),
		Goal:            b.secretText("goal"),
		NextAction:      b.secretText("nextAction"),
		OpenProblems:    b.secretTexts("openProblems"),
		Phase:           rapid.SampledFrom(Phases()).Draw(t, "phase"),
		RunID:           b.id("runId"),
		SchemaVersion:   SchemaVersion,
		SeenToolCallIDs: seen,
		TaskID:          b.id("taskId"),
		TokenLedgerRef:  b.text("tokenLedgerRef"),
		Totals:          Totals{CompactionCount: b.int("compactions", 0, 20), ModelTurns: b.int("turns", 0, 20), ToolCalls: toolCalls},
		Delivery:        Delivery{AttachmentsDelivered: rapid.Bool().Draw(t, "delivered")},
		ExecutionBudget: ExecutionBudget{DeadlinePolicy: DeadlinePerExecutionSegment,
			PersistenceGraceMs: b.int("grace", 1, 60000), SegmentDeadlineMs: b.int("segment", 1, 1<<40)},
		Plan: Plan{Completed: b.secretTexts("plan.completed"), InProgress: b.optSecretText("plan.inProgress"),
			Pending: b.secretTexts("plan.pending")},
	}
	p.Compatibility = Compatibility{
		ActiveToolNames: make([]string, rapid.IntRange(0, 4).Draw(t, "tools.len")),
	}
	p.Compatibility.Integrity = prompt.Integrity{
		CapabilitiesHash:       b.hash("capabilitiesHash"),
		EffectCapabilitiesHash: b.hash("effectCapabilitiesHash"),
		ModelIdentity:          b.text("modelIdentity"),
		PromptHash:             b.hash("promptHash"),
		PromptVersion:          b.text("promptVersion"),
		RegistrySnapshotHash:   b.hash("registrySnapshotHash"),
		SystemPromptHash:       b.hash("systemPromptHash"),
		TaskContractHash:       b.hash("taskContractHash"),
	}
	for i := range p.Compatibility.ActiveToolNames {
		p.Compatibility.ActiveToolNames[i] = b.id("tool")
	}
	if rapid.Bool().Draw(t, "diffReview") {
		p.CompletionEvidence.DiffReview = &DiffReview{DiffHash: b.hash("diffHash"), Sequence: b.int("diff.seq", 0, 1000), WorkspaceFingerprint: b.text("diff.fp")}
	}
	p.AcceptanceCriteria = make([]Criterion, rapid.IntRange(0, 3).Draw(t, "criteria.len"))
	for i := range p.AcceptanceCriteria {
		c := Criterion{ID: b.id("criterion"), Text: b.secretText("criterion.text"), Required: rapid.Bool().Draw(t, "required"),
			Status: rapid.SampledFrom([]CriterionStatus{CriterionPending, CriterionWaived, CriterionSatisfied}).Draw(t, "status"), EvidenceIDs: []string{}}
		if len(seen) == 0 && c.Status == CriterionSatisfied {
			c.Status = CriterionPending
		}
		if len(seen) > 0 {
			lo := 0
			if c.Status == CriterionSatisfied {
				lo = 1
			}
			for range rapid.IntRange(lo, 2).Draw(t, "evidence.len") {
				c.EvidenceIDs = append(c.EvidenceIDs, b.pick("evidence", seen))
			}
		}
		p.AcceptanceCriteria[i] = c
	}
	p.Edits, p.LastToolCalls, p.PendingApprovals = []Edit{}, []ToolCallRecord{}, []PendingApproval{}
	if len(seen) > 0 {
		for range rapid.IntRange(0, 3).Draw(t, "edits.len") {
			p.Edits = append(p.Edits, b.edit(seen, toolCalls))
		}
		for range rapid.IntRange(0, 3).Draw(t, "calls.len") {
			call := ToolCallRecord{ArgumentsHash: b.hash("args"), Name: b.text("name"), ToolCallID: b.pick("call.id", seen),
				Outcome: rapid.SampledFrom([]ToolOutcome{OutcomeCanceled, OutcomeFailed, OutcomeSucceeded, OutcomeUnknown}).Draw(t, "outcome")}
			if rapid.Bool().Draw(t, "digest") {
				call.ArgumentDigest = b.text("digest")
			}
			if rapid.Bool().Draw(t, "idem") {
				call.IdempotencyKey = b.text("idem")
			}
			p.LastToolCalls = append(p.LastToolCalls, call)
		}
		for range rapid.IntRange(0, 2).Draw(t, "approvals.len") {
			p.PendingApprovals = append(p.PendingApprovals, PendingApproval{RequestID: b.id("request"),
				ReturnPhase: rapid.SampledFrom(Phases()).Draw(t, "returnPhase"), ToolCallID: b.pick("approval.call", seen), ToolName: b.text("toolName")})
		}
		if rapid.Bool().Draw(t, "research") {
			p.ResearchSources = []ResearchSource{}
			for i := range rapid.IntRange(0, 3).Draw(t, "research.len") {
				p.ResearchSources = append(p.ResearchSources, b.research(i, seen, toolCalls))
			}
		}
	}
	p.Validation = []ValidationRecord{}
	for range rapid.IntRange(0, 3).Draw(t, "validation.len") {
		v := ValidationRecord{Detail: b.secretText("validation.detail"), ID: b.id("validation"), Sequence: b.int("validation.seq", 0, toolCalls),
			Status:               rapid.SampledFrom([]ValidationStatus{ValidationFailed, ValidationNotRun, ValidationPassed}).Draw(t, "validation.status"),
			Scope:                rapid.SampledFrom([]ValidationScope{ScopePaths, ScopeWorkspace}).Draw(t, "scope"),
			WorkspaceFingerprint: b.text("validation.fp")}
		if rapid.Bool().Draw(t, "command") {
			v.Command = b.secretText("validation.command")
		}
		if v.Scope == ScopePaths || rapid.Bool().Draw(t, "paths") {
			v.Paths = []string{}
			lo := 0
			if v.Scope == ScopePaths {
				lo = 1
			}
			for range rapid.IntRange(lo, 2).Draw(t, "paths.len") {
				v.Paths = append(v.Paths, b.text("path"))
			}
		}
		p.Validation = append(p.Validation, v)
	}
	p.Workspace = Workspace{DirtyStateSummary: b.optSecretText("workspace.dirtyStateSummary"), Instructions: b.secretTexts("workspace.instructions"),
		ActiveFiles: []ActiveFileRecord{}}
	if rapid.Bool().Draw(t, "root") {
		root := "/" + b.text("root")
		p.Workspace.Root = &root
	}
	if rapid.Bool().Draw(t, "fingerprint") {
		fp := b.text("fingerprint")
		p.Workspace.StateFingerprint = &fp
	}
	for range rapid.IntRange(0, 3).Draw(t, "files.len") {
		p.Workspace.ActiveFiles = append(p.Workspace.ActiveFiles, b.activeFile())
	}
	if rapid.Bool().Draw(t, "noProgress") {
		p.NoProgress = b.noProgress()
	}
	ms := rapid.Int64Range(0, 4102444800000).Draw(t, "createdAt")
	return genCase{payload: p, secrets: b.secrets, reason: rapid.SampledFrom(Reasons()).Draw(t, "reason"), createdAt: FormatTimestamp(ms)}
})

// edit draws valid mutation evidence (CONTRACTS §7.6), typed or legacy.
func (b *builder) edit(seen []string, toolCalls int64) Edit {
	e := Edit{Path: b.text("edit.path"), Sequence: b.int("edit.seq", 0, toolCalls), ToolCallID: b.pick("edit.call", seen), WorkspaceFingerprint: b.text("edit.fp")}
	if rapid.Bool().Draw(b.t, "edit.typed") {
		e.BeforeKind = rapid.SampledFrom(EntryKinds()).Draw(b.t, "beforeKind")
		e.AfterKind = rapid.SampledFrom(EntryKinds()).Draw(b.t, "afterKind")
		if !e.BeforeKind.HashFree() {
			h := b.hash("before")
			e.BeforeHash = &h
		}
		if !e.AfterKind.HashFree() {
			h := b.hash("after") + "!"
			e.AfterHash = &h
		}
		if e.BeforeKind == e.AfterKind && e.BeforeKind.HashFree() {
			e.AfterKind = KindFile
			h := b.hash("after") + "!"
			e.AfterHash = &h
		}
		return e
	}
	e.BeforeHash = b.optHash("before")
	h := b.hash("after") + "!" // differs from any before hash
	e.AfterHash = &h
	return e
}

// research draws a research source with a unique URL.
func (b *builder) research(i int, seen []string, toolCalls int64) ResearchSource {
	r := ResearchSource{Kind: rapid.SampledFrom([]ResearchKind{ResearchFetch, ResearchSearch}).Draw(b.t, "research.kind"),
		Sequence: b.int("research.seq", 0, toolCalls), Summary: b.secretText("research.summary"), ToolCallID: b.pick("research.call", seen),
		Truncated: rapid.Bool().Draw(b.t, "truncated"),
		URL:       fmt.Sprintf("https://h%d.example/%s?%s", i, rapid.StringOfN(alnum, 0, 6, -1).Draw(b.t, "url.path"), b.secret("research.url"))}
	r.Title = b.optSecretText("research.title")
	if r.Kind == ResearchFetch {
		h := b.hash("research.hash")
		r.ContentHash = &h
	} else {
		r.ContentHash = b.optHash("research.hash")
	}
	return r
}

// activeFile draws an active file whose hash fits its kind.
func (b *builder) activeFile() ActiveFileRecord {
	f := ActiveFileRecord{ActiveFile: port.ActiveFile{Path: b.text("file.path")}}
	if rapid.Bool().Draw(b.t, "file.kind.present") {
		f.Kind = string(rapid.SampledFrom(EntryKinds()).Draw(b.t, "file.kind"))
	}
	switch {
	case EntryKind(f.Kind).HashFree():
	case f.Kind != "":
		h := b.hash("file.hash")
		f.ContentHash = &h
	default:
		f.ContentHash = b.optHash("file.hash")
	}
	if rapid.Bool().Draw(b.t, "file.reason.present") {
		f.Reason = b.secretText("file.reason")
	}
	if rapid.Bool().Draw(b.t, "file.lines") {
		start := b.int("file.start", 1, 100)
		end := start + b.int("file.span", 0, 100)
		f.StartLine, f.EndLine = &start, &end
	}
	return f
}

// noProgress draws guard state with every optional member sometimes.
func (b *builder) noProgress() *NoProgress {
	t := b.t
	np := &NoProgress{Episodes: b.int("episodes", 0, 5), FailedToolFamilies: []FamilyCount{}}
	for range rapid.IntRange(0, 2).Draw(t, "families.len") {
		np.FailedToolFamilies = append(np.FailedToolFamilies, FamilyCount{Count: b.int("count", 1, 9), Key: b.text("family")})
	}
	if rapid.Bool().Draw(t, "hostStateVersions") {
		np.HostStateVersions = []HostStateVersion{}
		for range rapid.IntRange(0, 2).Draw(t, "hsv.len") {
			np.HostStateVersions = append(np.HostStateVersions, HostStateVersion{Key: b.text("hsv.key"), Value: b.text("hsv.value")})
		}
	}
	if rapid.Bool().Draw(t, "thresholds") {
		np.ObservationNudgeThresholds = rapid.SliceOfNDistinct(rapid.Int64Range(2, 20), 1, 8, rapid.ID).Draw(t, "thresholds.values")
	}
	if rapid.Bool().Draw(t, "observationFamilies") {
		np.ObservationFamilies = []FamilyCount{{Count: b.int("obs.count", 1, 9), Key: b.text("obs.key")}}
	}
	if rapid.Bool().Draw(t, "policy") {
		np.Policy = rapid.SampledFrom([]NoProgressPolicy{PolicyAdvisory, PolicyStrict}).Draw(t, "policy.value")
	}
	if rapid.Bool().Draw(t, "previousTool") {
		np.PreviousTool = &PreviousTool{ArgumentsHash: b.hash("prev.args"), Name: b.text("prev.name"), Repetitions: b.int("prev.reps", 1, 5)}
	}
	if rapid.Bool().Draw(t, "cycle") {
		np.ToolCycleSuffix = []CycleEntry{}
		for range rapid.IntRange(0, 12).Draw(t, "cycle.len") {
			np.ToolCycleSuffix = append(np.ToolCycleSuffix, CycleEntry{ArgumentsHash: b.hash("cycle.args"), Name: b.text("cycle.name")})
		}
	}
	return np
}
