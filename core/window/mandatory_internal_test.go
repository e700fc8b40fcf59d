package window

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/galaxy-stack/conform/core/canon"
)

// mandatoryStateMap is MandatoryState written with a map document, as it
// was before the document became a struct: the reference whose member
// names and order the struct must match byte for byte.
func mandatoryStateMap(in StateInput) string {
	d := stateDocumentOf(in)
	doc := map[string]any{
		"acceptanceCriteria": d.AcceptanceCriteria, "approvals": d.Approvals, "decisions": d.Decisions,
		"editedFiles": d.EditedFiles, "editedFilesTotal": d.EditedFilesTotal, "executionBudget": d.ExecutionBudget,
		"nextAction": d.NextAction, "openProblems": d.OpenProblems, "phase": d.Phase, "pendingApprovals": d.PendingApprovals,
		"plan": d.Plan, "researchSources": d.ResearchSources, "validation": d.Validation, "workspaceRoot": d.WorkspaceRoot,
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
