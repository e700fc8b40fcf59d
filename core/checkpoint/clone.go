package checkpoint

import "slices"

// Clone returns a deep copy of c that shares no memory with it: changing
// either afterwards never changes the other (clone on read and write, seed
// "Checkpoint store and trace"). Nil stays nil and empty stays empty, so
// the copy serializes to the same bytes. Clone of nil is nil.
func (c *Checkpoint) Clone() *Checkpoint {
	if c == nil {
		return nil
	}
	out := *c
	out.Payload = clonePayload(c.Payload)
	return &out
}

// clonePayload deep-copies p.
func clonePayload(p Payload) Payload {
	out := p
	out.AcceptanceCriteria = cloneEach(p.AcceptanceCriteria, func(c Criterion) Criterion {
		c.EvidenceIDs = slices.Clone(c.EvidenceIDs)
		return c
	})
	out.Approvals = slices.Clone(p.Approvals)
	out.Compatibility.ActiveToolNames = slices.Clone(p.Compatibility.ActiveToolNames)
	out.CompletionEvidence.DiffReview = clonePtr(p.CompletionEvidence.DiffReview)
	out.Constraints = slices.Clone(p.Constraints)
	out.Decisions = slices.Clone(p.Decisions)
	out.Edits = cloneEach(p.Edits, func(e Edit) Edit {
		e.AfterHash = clonePtr(e.AfterHash)
		e.BeforeHash = clonePtr(e.BeforeHash)
		return e
	})
	out.LastToolCalls = slices.Clone(p.LastToolCalls)
	if p.NoProgress != nil {
		np := *p.NoProgress
		np.FailedToolFamilies = slices.Clone(np.FailedToolFamilies)
		np.HostStateVersions = slices.Clone(np.HostStateVersions)
		np.ObservationNudgeThresholds = slices.Clone(np.ObservationNudgeThresholds)
		np.ObservationFamilies = slices.Clone(np.ObservationFamilies)
		np.PreviousTool = clonePtr(np.PreviousTool)
		np.ToolCycleSuffix = slices.Clone(np.ToolCycleSuffix)
		out.NoProgress = &np
	}
	out.OpenProblems = slices.Clone(p.OpenProblems)
	out.PendingApprovals = slices.Clone(p.PendingApprovals)
	out.Plan.Completed = slices.Clone(p.Plan.Completed)
	out.Plan.InProgress = clonePtr(p.Plan.InProgress)
	out.Plan.Pending = slices.Clone(p.Plan.Pending)
	out.ResearchSources = cloneEach(p.ResearchSources, func(r ResearchSource) ResearchSource {
		r.ContentHash = clonePtr(r.ContentHash)
		r.Title = clonePtr(r.Title)
		return r
	})
	out.SeenToolCallIDs = slices.Clone(p.SeenToolCallIDs)
	out.Validation = cloneEach(p.Validation, func(v ValidationRecord) ValidationRecord {
		v.Paths = slices.Clone(v.Paths)
		return v
	})
	out.Workspace.ActiveFiles = cloneEach(p.Workspace.ActiveFiles, func(f ActiveFileRecord) ActiveFileRecord {
		f.ContentHash = clonePtr(f.ContentHash)
		f.EndLine = clonePtr(f.EndLine)
		f.StartLine = clonePtr(f.StartLine)
		return f
	})
	out.Workspace.DirtyStateSummary = clonePtr(p.Workspace.DirtyStateSummary)
	out.Workspace.Instructions = slices.Clone(p.Workspace.Instructions)
	out.Workspace.Root = clonePtr(p.Workspace.Root)
	out.Workspace.StateFingerprint = clonePtr(p.Workspace.StateFingerprint)
	return out
}

// cloneEach copies s (nil stays nil) and deep-copies each element with f.
func cloneEach[T any](s []T, f func(T) T) []T {
	if s == nil {
		return nil
	}
	out := make([]T, len(s))
	for i, v := range s {
		out[i] = f(v)
	}
	return out
}

// clonePtr returns a pointer to a copy of *p, or nil.
func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// orEmpty returns s, or an empty non-nil slice when s is nil.
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
