package prompt

import (
	"slices"

	"github.com/galaxy-stack/conform/core/clone"
)

// Snapshot returns the request as the run uses it from then on (RUNTIME
// §4.4): a deep copy that shares no memory with r, in which a non-coding
// agent profile makes requireInspection default to false (the caller can
// still set it to true).
func (r Request) Snapshot() Request {
	out := r
	out.AcceptanceCriteria = slices.Clone(r.AcceptanceCriteria)
	for i, c := range out.AcceptanceCriteria {
		if c.Required != nil {
			b := *c.Required
			out.AcceptanceCriteria[i].Required = &b
		}
	}
	out.Attachments = slices.Clone(r.Attachments)
	out.Budget = slices.Clone(r.Budget)
	out.Checkpoint = slices.Clone(r.Checkpoint)
	out.Constraints = slices.Clone(r.Constraints)
	out.ContextData = slices.Clone(r.ContextData)
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
		*p = clone.Ptr(*p)
	}
	if c.Research != nil {
		r := *c.Research
		r.MinFetchCalls = clone.Ptr(r.MinFetchCalls)
		r.MinSearchCalls = clone.Ptr(r.MinSearchCalls)
		r.RequireCitations = clone.Ptr(r.RequireCitations)
		r.RequiredDomains = slices.Clone(r.RequiredDomains)
		out.Research = &r
	}
	return &out
}
