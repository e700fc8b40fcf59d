package prompt

// Snapshot returns the request as the run uses it from then on (RUNTIME
// §4.4): a deep copy that shares no memory with r, in which a non-coding
// agent profile makes requireInspection default to false (the caller can
// still set it to true).
func (r Request) Snapshot() Request {
	out := r
	out.AcceptanceCriteria = cloneSlice(r.AcceptanceCriteria)
	for i, c := range out.AcceptanceCriteria {
		if c.Required != nil {
			b := *c.Required
			out.AcceptanceCriteria[i].Required = &b
		}
	}
	out.Attachments = cloneSlice(r.Attachments)
	out.Budget = cloneSlice(r.Budget)
	out.Checkpoint = cloneSlice(r.Checkpoint)
	out.Constraints = cloneSlice(r.Constraints)
	out.ContextData = cloneSlice(r.ContextData)
	out.Prompt = r.Prompt.Clone()
	out.Completion = r.Completion.clone()
	if r.Prompt.Profile() != AgentCoding {
		if out.Completion == nil {
			out.Completion = &Completion{}
		}
		if out.Completion.RequireInspection == nil {
			f := false
			out.Completion.RequireInspection = &f
		}
	}
	return out
}

// clone returns a deep copy of c (nil for nil).
func (c *Completion) clone() *Completion {
	if c == nil {
		return nil
	}
	out := *c
	for _, p := range []**bool{&out.RequireFinalReportPersistence, &out.RequireInspection, &out.RequireTokenLedger, &out.RequireTrace, &out.RequireValidation} {
		*p = cloneBool(*p)
	}
	if c.Research != nil {
		r := *c.Research
		r.MinFetchCalls = cloneInt(r.MinFetchCalls)
		r.MinSearchCalls = cloneInt(r.MinSearchCalls)
		r.RequireCitations = cloneBool(r.RequireCitations)
		r.RequiredDomains = cloneSlice(r.RequiredDomains)
		out.Research = &r
	}
	return &out
}

func cloneBool(p *bool) *bool {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func cloneInt(p *int64) *int64 {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func cloneSlice[S ~[]E, E any](s S) S {
	if s == nil {
		return nil
	}
	return append(S{}, s...)
}
