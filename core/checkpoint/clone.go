package checkpoint

import (
	"slices"

	"github.com/galaxy-stack/conform/core/clone"
)

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
	out.CompletionEvidence.DiffReview = clone.Ptr(p.CompletionEvidence.DiffReview)
	out.Constraints = slices.Clone(p.Constraints)
	out.Decisions = slices.Clone(p.Decisions)
	out.Edits = cloneEach(p.Edits, func(e Edit) Edit {
		e.AfterHash = clone.Ptr(e.AfterHash)
		e.BeforeHash = clone.Ptr(e.BeforeHash)
		return e
	})
	out.LastToolCalls = slices.Clone(p.LastToolCalls)
	if p.NoProgress != nil {
		np := *p.NoProgress
		np.FailedToolFamilies = slices.Clone(np.FailedToolFamilies)
		np.HostStateVersions = slices.Clone(np.HostStateVersions)
		np.ObservationNudgeThresholds = slices.Clone(np.ObservationNudgeThresholds)
		np.ObservationFamilies = slices.Clone(np.ObservationFamilies)
		np.PreviousTool = clone.Ptr(np.PreviousTool)
		np.ToolCycleSuffix = slices.Clone(np.ToolCycleSuffix)
		out.NoProgress = &np
	}
	out.OpenProblems = slices.Clone(p.OpenProblems)
	out.PendingApprovals = slices.Clone(p.PendingApprovals)
	out.Plan.Completed = slices.Clone(p.Plan.Completed)
	out.Plan.InProgress = clone.Ptr(p.Plan.InProgress)
	out.Plan.Pending = slices.Clone(p.Plan.Pending)
	out.ResearchSources = cloneEach(p.ResearchSources, func(r ResearchSource) ResearchSource {
		r.ContentHash = clone.Ptr(r.ContentHash)
		r.Title = clone.Ptr(r.Title)
		return r
	})
	out.SeenToolCallIDs = slices.Clone(p.SeenToolCallIDs)
	out.Validation = cloneEach(p.Validation, func(v ValidationRecord) ValidationRecord {
		v.Paths = slices.Clone(v.Paths)
		return v
	})
	out.Workspace.ActiveFiles = cloneEach(p.Workspace.ActiveFiles, func(f ActiveFileRecord) ActiveFileRecord {
		f.ContentHash = clone.Ptr(f.ContentHash)
		f.EndLine = clone.Ptr(f.EndLine)
		f.StartLine = clone.Ptr(f.StartLine)
		return f
	})
	out.Workspace.DirtyStateSummary = clone.Ptr(p.Workspace.DirtyStateSummary)
	out.Workspace.Instructions = slices.Clone(p.Workspace.Instructions)
	out.Workspace.Root = clone.Ptr(p.Workspace.Root)
	out.Workspace.StateFingerprint = clone.Ptr(p.Workspace.StateFingerprint)
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

// orEmpty returns s, or an empty non-nil slice when s is nil.
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
