package run

import (
	"slices"
	"sort"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/clone"
	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/core/faults"
	"github.com/galaxy-stack/conform/core/port"
)

// applyEffects applies a result's host-attested effects (RUNTIME §16.3).
// Nothing is mutated until every check and the workspace capture succeeded.
func (s *session) applyEffects(c *callState) error {
	r := c.result
	e := r.Effects
	if e == nil || r.EffectsAuthority != effects.AuthorityHost {
		return nil
	}
	// Core fault: effects outside the tool's effect profile are applied.
	if err := effects.CheckCapabilities(r, s.toolSet.EffectCapabilities[r.CanonicalToolID]); err != nil && !faults.On(faults.EffectsSkipCapabilityCheck) {
		return err
	}
	name, id := c.call.Name, c.call.ToolCallID
	if r.OK && e.Approval == effects.ApprovalPending {
		if err := effects.CheckPending(r); err != nil {
			return err
		}
		if s.isPending(e.ApprovalRequestID) {
			return newError(CodeToolExecution, "Approval request %s is already pending.", e.ApprovalRequestID)
		}
		ret := s.currentState()
		if ret == StateWaitingApproval {
			ret = StateInspecting
		}
		s.mu.Lock()
		s.pending = append(s.pending, pendingApproval{RequestID: e.ApprovalRequestID, ReturnState: ret, ToolCallID: id, ToolName: name})
		s.mu.Unlock()
		return s.transition(StateWaitingApproval, name+" is waiting for approval "+e.ApprovalRequestID+".")
	}
	if !r.OK {
		if e.Approval == effects.ApprovalDenied {
			return s.recordDecision(e.ApprovalRequestID, effects.ApprovalDenied, name, id)
		}
		return nil
	}
	s.mu.Lock()
	blocked := slices.ContainsFunc(s.pending, func(p pendingApproval) bool {
		return p.RequestID != e.ApprovalRequestID || (e.Approval != effects.ApprovalGranted && e.Approval != effects.ApprovalDenied)
	})
	s.mu.Unlock()
	if blocked {
		return newError(CodeToolExecution, "Success effects are blocked while an approval remains unresolved.")
	}
	sequence := int64(s.toolCalls)
	known := make([]string, 0, len(s.ev.criteria))
	for _, cr := range s.ev.criteria {
		known = append(known, cr.ID)
	}
	if err := effects.CheckContent(e, known); err != nil {
		return err
	}
	var fp string
	if effects.NeedsWorkspaceFingerprint(e) {
		var err error
		if fp, err = s.captureFingerprint(e.InspectedPaths, e.Writes); err != nil {
			return err
		}
	}
	c.fingerprint = fp
	if e.Approval == effects.ApprovalGranted || e.Approval == effects.ApprovalDenied {
		if err := s.recordDecision(e.ApprovalRequestID, e.Approval, name, id); err != nil {
			return err
		}
	}
	for _, p := range e.InspectedPaths {
		s.ev.inspected[p] = true
	}
	s.mergeResearch(e.ResearchSources, sequence, id)
	for _, w := range e.Writes {
		if isGeneratedWritePath(w.Path) {
			continue
		}
		c.recordedWrites = append(c.recordedWrites, w)
		s.ev.writes = append(s.ev.writes, checkpoint.Edit{AfterHash: clone.Ptr(w.AfterHash), AfterKind: checkpoint.EntryKind(w.AfterKind),
			BeforeHash: clone.Ptr(w.BeforeHash), BeforeKind: checkpoint.EntryKind(w.BeforeKind), Path: w.Path, Sequence: sequence,
			ToolCallID: id, WorkspaceFingerprint: fp})
	}
	for _, v := range e.Validations {
		s.recordValidation(v, sequence, fp)
	}
	if e.DiffReview != nil {
		s.ev.diffReview = &checkpoint.DiffReview{DiffHash: e.DiffReview.DiffHash, Sequence: sequence, WorkspaceFingerprint: fp}
	}
	if e.Plan != nil {
		s.ev.plan = checkpoint.Plan{Completed: slices.Clone(e.Plan.Completed), InProgress: clone.Ptr(e.Plan.InProgress), Pending: slices.Clone(e.Plan.Pending)}
		for _, d := range e.Plan.Decisions {
			if !slices.Contains(s.ev.decisions, d) {
				s.ev.decisions = append(s.ev.decisions, d)
			}
		}
	}
	if !canon.IsBlank(e.NextAction) {
		s.ev.nextAction = e.NextAction
	}
	s.applyCriteria(e.AcceptanceCriteriaSatisfied, checkpoint.CriterionSatisfied, id)
	s.applyCriteria(e.AcceptanceCriteriaWaived, checkpoint.CriterionWaived, id)
	switch effects.TargetState(e) {
	case effects.StateExecuting:
		return s.transition(StateExecuting, name+" changed workspace state.")
	case effects.StateValidating:
		return s.transition(StateValidating, name+" produced validation evidence.")
	case effects.StateReviewing:
		return s.transition(StateReviewing, name+" reviewed the final diff.")
	case effects.StatePlanning:
		if err := s.transition(StatePlanning, name+" updated the run plan."); err != nil {
			return err
		}
		plan := s.ev.plan
		s.emitEvent(Event{Type: EventPlan, Plan: &plan, ToolCallID: id, Turn: s.modelTurns + 1})
	}
	return nil
}

func (s *session) applyCriteria(ids []string, status checkpoint.CriterionStatus, callID string) {
	for _, cid := range ids {
		for i := range s.ev.criteria {
			cr := &s.ev.criteria[i]
			if cr.ID == cid && cr.Status != status {
				cr.Status = status
				cr.EvidenceIDs = append(cr.EvidenceIDs, callID)
			}
		}
	}
}

// recordDecision records an approval decision carried by a result (RUNTIME
// §16.3 steps 4 and 10).
func (s *session) recordDecision(requestID, decision, name, callID string) error {
	if requestID == "" {
		s.ev.approvals = append(s.ev.approvals, effects.ApprovalRecord(decision, "", name, callID))
		return nil
	}
	s.mu.Lock()
	var entry *pendingApproval
	for i, p := range s.pending {
		if p.RequestID == requestID {
			e := p
			entry = &e
			s.pending = slices.Delete(s.pending, i, i+1)
			break
		}
	}
	remaining := len(s.pending)
	s.mu.Unlock()
	s.ev.approvals = append(s.ev.approvals, effects.ApprovalRecord(decision, requestID, name, callID))
	if entry != nil && remaining == 0 && s.currentState() == StateWaitingApproval {
		return s.transition(entry.ReturnState, "Approval "+requestID+" was "+decision+".")
	}
	return nil
}

// recordValidation is RUNTIME §16.5.
func (s *session) recordValidation(v port.ValidationEntry, sequence int64, fp string) {
	var superseded []string
	dup := -1
	for i, old := range s.ev.validations {
		if old.ID != v.ID {
			continue
		}
		if old.Status == checkpoint.ValidationFailed {
			superseded = append(superseded, old.Detail)
		}
		if string(old.Status) == v.Status && old.WorkspaceFingerprint == fp {
			dup = i
		}
	}
	rec := checkpoint.ValidationRecord{Detail: v.Detail, ID: v.ID, Paths: slices.Clone(v.Paths), Scope: checkpoint.ValidationScope(v.Scope),
		Sequence: sequence, Status: checkpoint.ValidationStatus(v.Status), WorkspaceFingerprint: fp}
	if dup >= 0 {
		old := s.ev.validations[dup]
		s.ev.validations[dup] = rec
		if rec.Status == checkpoint.ValidationFailed {
			s.ev.removeOpenProblem(old.Detail)
		}
	} else {
		s.ev.validations = append(s.ev.validations, rec)
	}
	switch rec.Status {
	case checkpoint.ValidationFailed:
		s.ev.addOpenProblem(rec.Detail)
	case checkpoint.ValidationPassed:
		s.ev.removeOpenProblem(rec.Detail)
		for _, d := range superseded {
			s.ev.removeOpenProblem(d)
		}
	}
}

// mergeResearch is RUNTIME §16.6: keyed by (URL without fragment, kind),
// replaced only when the evidence changed, last 24 kept.
func (s *session) mergeResearch(sources []port.ResearchSource, sequence int64, callID string) {
	for _, src := range sources {
		u, err := effects.NormalizeResearchURL(src.URL)
		if err != nil {
			u = src.URL
		}
		rec := checkpoint.ResearchSource{ContentHash: clone.Ptr(src.ContentHash), Kind: checkpoint.ResearchKind(src.Kind), Sequence: sequence,
			Summary: src.Summary, ToolCallID: callID, Truncated: src.Truncated, URL: u}
		if src.Title != "" {
			rec.Title = ptr(src.Title)
		}
		idx := slices.IndexFunc(s.ev.research, func(r checkpoint.ResearchSource) bool { return r.URL == u && r.Kind == rec.Kind })
		switch {
		case idx < 0:
			s.ev.research = append(s.ev.research, rec)
		case researchChanged(s.ev.research[idx], rec):
			s.ev.research[idx] = rec
		}
	}
	if len(s.ev.research) > 24 {
		s.ev.research = s.ev.research[len(s.ev.research)-24:]
	}
}

func researchChanged(a, b checkpoint.ResearchSource) bool {
	str := func(p *string) string {
		if p == nil {
			return "\x00nil"
		}
		return *p
	}
	return str(a.ContentHash) != str(b.ContentHash) || a.Summary != b.Summary || str(a.Title) != str(b.Title) || a.Truncated != b.Truncated
}

// activeFiles lists inspected and written paths with their latest written
// hash and kind (RUNTIME §16.7); extra inspected paths and writes are
// pending ones of the result being applied.
func (s *session) activeFiles(extraInspected []string, extraWrites []port.Write) []checkpoint.ActiveFileRecord {
	type st struct {
		hash *string
		kind checkpoint.EntryKind
	}
	paths := map[string]bool{}
	latest := map[string]st{}
	for p := range s.ev.inspected {
		paths[p] = true
	}
	for _, p := range extraInspected {
		paths[p] = true
	}
	for _, w := range s.ev.writes {
		paths[w.Path] = true
		latest[w.Path] = st{w.AfterHash, w.AfterKind}
	}
	for _, w := range extraWrites {
		paths[w.Path] = true
		latest[w.Path] = st{w.AfterHash, checkpoint.EntryKind(w.AfterKind)}
	}
	keys := make([]string, 0, len(paths))
	for p := range paths {
		keys = append(keys, p)
	}
	sort.Strings(keys)
	out := make([]checkpoint.ActiveFileRecord, 0, len(keys))
	for _, p := range keys {
		l := latest[p]
		out = append(out, checkpoint.ActiveFileRecord{ActiveFile: port.ActiveFile{ContentHash: clone.Ptr(l.hash), Kind: string(l.kind), Path: p}})
	}
	return out
}

// captureFingerprint captures the workspace fingerprint (RUNTIME §16.7).
func (s *session) captureFingerprint(extraInspected []string, extraWrites []port.Write) (string, error) {
	if s.deps.Verifier == nil {
		return "", effects.MissingVerifier()
	}
	var st port.WorkspaceState
	err := safeCall(func() error {
		var e error
		st, e = s.deps.Verifier.Capture(s.ctx, WorkspaceInput{ActiveFiles: boundFiles(s.activeFiles(extraInspected, extraWrites))})
		return e
	})
	if err != nil {
		if ctrl := s.checkControl(); ctrl != nil {
			return "", ctrl
		}
		return "", newError(CodeToolExecution, "Workspace evidence capture failed: %s", errText(err))
	}
	if canon.IsBlank(st.StateFingerprint) {
		return "", newError(CodeToolExecution, "Workspace evidence capture returned an empty fingerprint.")
	}
	return st.StateFingerprint, nil
}
