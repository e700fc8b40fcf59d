package window

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/checkpoint"
)

// mandatoryStateMap is MandatoryState written with a map document, as it
// was before the document became a struct: the reference the struct must
// match byte for byte.
func mandatoryStateMap(in StateInput) string {
	writes := in.Writes
	if len(writes) > StateEditedFilesMax {
		writes = writes[len(writes)-StateEditedFilesMax:]
	}
	problems := in.OpenProblems
	if len(problems) > StateOpenProblemsMax {
		problems = problems[len(problems)-StateOpenProblemsMax:]
	}
	shown := make([]string, len(problems))
	for i, p := range problems {
		shown[i] = canon.CutUTF16(checkpoint.Redact(p), StateOpenProblemChars)
	}
	validation := make([]StateValidation, len(in.Validation))
	for i, v := range in.Validation {
		if v.Paths == nil {
			v.Paths = []string{}
		}
		validation[i] = v
	}
	next, phase := in.NextAction, in.State
	if in.Finalizing {
		next, phase = FinalizationNextAction, FinalizingPhase
	}
	doc := map[string]any{
		"acceptanceCriteria": orEmpty(in.AcceptanceCriteria), "approvals": nonNil(in.Approvals), "decisions": nonNil(in.Decisions),
		"editedFiles": nonNil(writes), "editedFilesTotal": len(in.Writes),
		"executionBudget": executionBudget{RemainingModelTurns: max(0, in.MaxTurns-in.ModelTurns),
			RemainingToolCalls: max(0, in.MaxToolCalls-in.ToolCalls), TotalModelTurns: in.MaxTurns, TotalToolCalls: in.MaxToolCalls},
		"nextAction": next, "openProblems": shown, "phase": phase, "pendingApprovals": nonNil(in.PendingApprovals),
		"plan": in.Plan, "researchSources": nonNil(in.ResearchSources), "validation": validation, "workspaceRoot": in.WorkspaceRoot,
	}
	b, err := canon.Marshal(doc)
	if err != nil {
		return "error: " + err.Error()
	}
	return string(b)
}

// TestPropertyMandatoryStateMatchesTheMapDocument: over random run states
// (absent and empty lists, more writes and problems than shown, the
// finalization mode, odd texts), the document is the one the map-based
// reference writes.
func TestPropertyMandatoryStateMatchesTheMapDocument(t *testing.T) {
	text := rapid.SampledFrom([]string{"", "a", "token=secret", "<&>", "ünï \u2028", `"q"\`, "\x01"})
	strs := func(t *rapid.T, label string) []string {
		if rapid.Bool().Draw(t, label+" nil") {
			return nil
		}
		return rapid.SliceOfN(text, 0, 10).Draw(t, label)
	}
	rapid.Check(t, func(t *rapid.T) {
		in := StateInput{Approvals: strs(t, "approvals"), Decisions: strs(t, "decisions"), OpenProblems: strs(t, "problems"),
			MaxTurns: rapid.IntRange(0, 50).Draw(t, "maxTurns"), ModelTurns: rapid.IntRange(0, 60).Draw(t, "turns"),
			MaxToolCalls: rapid.IntRange(0, 50).Draw(t, "maxCalls"), ToolCalls: rapid.IntRange(0, 60).Draw(t, "calls"),
			Finalizing: rapid.Bool().Draw(t, "finalizing"), NextAction: text.Draw(t, "next"), State: text.Draw(t, "state"),
			WorkspaceRoot: text.Draw(t, "root")}
		if rapid.Bool().Draw(t, "criteria") {
			in.AcceptanceCriteria = []any{map[string]any{"id": text.Draw(t, "criterion"), "status": "pending"}}
		}
		for i := range rapid.IntRange(0, 210).Draw(t, "writes") {
			in.Writes = append(in.Writes, map[string]any{"path": fmt.Sprintf("f%d.go", i), "note": text.Draw(t, "note")})
		}
		for range rapid.IntRange(0, 3).Draw(t, "pending") {
			in.PendingApprovals = append(in.PendingApprovals, StatePendingApproval{RequestID: text.Draw(t, "req"), ToolName: "command_run"})
		}
		if rapid.Bool().Draw(t, "plan") {
			in.Plan = map[string]any{"completed": []string{}, "inProgress": nil, "pending": []string{text.Draw(t, "step")}}
		}
		for range rapid.IntRange(0, 2).Draw(t, "research") {
			title := text.Draw(t, "title")
			in.ResearchSources = append(in.ResearchSources, StateResearchSource{Kind: "fetch", Summary: text.Draw(t, "summary"), Title: &title})
		}
		for i := range rapid.IntRange(0, 2).Draw(t, "validations") {
			in.Validation = append(in.Validation, StateValidation{ID: "v", Paths: strs(t, "paths"), Sequence: i, Status: "passed"})
		}
		got, err := MandatoryState(in)
		if err != nil {
			got = "error: " + err.Error()
		}
		if want := mandatoryStateMap(in); got != want {
			t.Fatalf("document\n%s\nwant\n%s", got, want)
		}
	})
}
