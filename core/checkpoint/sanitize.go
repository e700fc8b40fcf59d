package checkpoint

// RedactedFields names the free-text fields that [Sanitize] redacts
// (CONTRACTS §11.4), as JSON paths with [] for "every element".
func RedactedFields() []string {
	return []string{
		"acceptanceCriteria[].text",
		"approvals[]",
		"constraints[]",
		"decisions[]",
		"goal",
		"nextAction",
		"openProblems[]",
		"plan.completed[]",
		"plan.inProgress",
		"plan.pending[]",
		"researchSources[].summary",
		"researchSources[].title",
		"researchSources[].url",
		"validation[].command",
		"validation[].detail",
		"workspace.activeFiles[].reason",
		"workspace.dirtyStateSummary",
		"workspace.instructions[]",
	}
}

// Sanitize returns a deep copy of p rebuilt field by field (CONTRACTS
// §11.4): the fields of [RedactedFields] pass through [Redact], a blank
// validation command is dropped, nil required arrays become empty, and
// everything else (hashes, IDs, paths, compatibility, edits, lastToolCalls,
// noProgress, totals, executionBudget) is copied unchanged. p is not
// modified.
func Sanitize(p Payload) Payload {
	return defaults().sanitize(p)
}

// text redacts one value of field unless the variant skips that field.
func (o options) text(field, s string) string {
	if field == o.skipRedaction {
		return s
	}
	return o.redact(s)
}

// texts redacts every element of a list field into a new, non-nil slice.
func (o options) texts(field string, s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = o.text(field, v)
	}
	return out
}

// optText redacts a nullable or optional text.
func (o options) optText(field string, s *string) *string {
	if s == nil {
		return nil
	}
	v := o.text(field, *s)
	return &v
}

// sanitize is [Sanitize] with the given options.
func (o options) sanitize(p Payload) Payload {
	out := clonePayload(p)
	out.AcceptanceCriteria = orEmpty(out.AcceptanceCriteria)
	out.Compatibility.ActiveToolNames = orEmpty(out.Compatibility.ActiveToolNames)
	out.Edits = orEmpty(out.Edits)
	out.LastToolCalls = orEmpty(out.LastToolCalls)
	if out.NoProgress != nil {
		out.NoProgress.FailedToolFamilies = orEmpty(out.NoProgress.FailedToolFamilies)
	}
	out.PendingApprovals = orEmpty(out.PendingApprovals)
	out.SeenToolCallIDs = orEmpty(out.SeenToolCallIDs)
	out.Validation = orEmpty(out.Validation)
	out.Workspace.ActiveFiles = orEmpty(out.Workspace.ActiveFiles)
	for i := range out.AcceptanceCriteria {
		out.AcceptanceCriteria[i].EvidenceIDs = orEmpty(out.AcceptanceCriteria[i].EvidenceIDs)
		out.AcceptanceCriteria[i].Text = o.text("acceptanceCriteria[].text", out.AcceptanceCriteria[i].Text)
	}
	out.Approvals = o.texts("approvals[]", p.Approvals)
	out.Constraints = o.texts("constraints[]", p.Constraints)
	out.Decisions = o.texts("decisions[]", p.Decisions)
	out.Goal = o.text("goal", p.Goal)
	out.NextAction = o.text("nextAction", p.NextAction)
	out.OpenProblems = o.texts("openProblems[]", p.OpenProblems)
	out.Plan.Completed = o.texts("plan.completed[]", p.Plan.Completed)
	out.Plan.InProgress = o.optText("plan.inProgress", p.Plan.InProgress)
	out.Plan.Pending = o.texts("plan.pending[]", p.Plan.Pending)
	for i := range out.ResearchSources {
		r := &out.ResearchSources[i]
		r.Summary = o.text("researchSources[].summary", r.Summary)
		r.Title = o.optText("researchSources[].title", r.Title)
		r.URL = o.text("researchSources[].url", r.URL)
	}
	for i := range out.Validation {
		v := &out.Validation[i]
		if v.Command != "" {
			v.Command = o.text("validation[].command", v.Command)
		}
		v.Detail = o.text("validation[].detail", v.Detail)
	}
	for i := range out.Workspace.ActiveFiles {
		f := &out.Workspace.ActiveFiles[i]
		if f.Reason != "" {
			f.Reason = o.text("workspace.activeFiles[].reason", f.Reason)
		}
	}
	out.Workspace.DirtyStateSummary = o.optText("workspace.dirtyStateSummary", p.Workspace.DirtyStateSummary)
	out.Workspace.Instructions = o.texts("workspace.instructions[]", p.Workspace.Instructions)
	return out
}
