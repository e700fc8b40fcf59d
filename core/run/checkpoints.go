package run

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"time"

	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/clone"
	"github.com/galaxy-stack/conform/core/faults"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/prompt"
)

// persistenceSave saves a pause or failure checkpoint under a persistence
// context: a fresh signal that fires after persistenceGraceMs (RUNTIME §21.3).
func (s *session) persistenceSave(reason checkpoint.Reason) error {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(context.Canceled)
	stop := s.deps.Timers.AfterFunc(time.Duration(s.budget.PersistenceGraceMs)*time.Millisecond, func() {
		cancel(newError(CodeDeadlineExceeded, "Checkpoint persistence cleanup timed out."))
	})
	defer stop()
	return safeCall(func() error { return s.saveCheckpoint(ctx, reason, false, "", 0) })
}

// saveCheckpoint is RUNTIME §21.1. main says whether this is a main-context
// save (traced and announced); phase overrides the phase of the current
// state; increment is added to the compaction count.
func (s *session) saveCheckpoint(ctx context.Context, reason checkpoint.Reason, main bool, phase checkpoint.Phase, increment int) error {
	if err := s.refreshToolSet(ctx, main); err != nil {
		return err
	}
	files := s.activeFiles(nil, nil)
	var summary, fingerprint *string
	if s.deps.Verifier != nil {
		var st port.WorkspaceState
		err := safeCall(func() error {
			var e error
			st, e = s.deps.Verifier.Capture(ctx, WorkspaceInput{ActiveFiles: boundFiles(files)})
			return e
		})
		if err != nil {
			if c := persistenceCause(ctx); c != nil {
				return c
			}
			return newError(CodeCheckpointIncompatible, "Workspace checkpoint capture failed: %s", errText(err))
		}
		files, summary, fingerprint = checkpointFiles(st.ActiveFiles), st.DirtyStateSummary, ptr(st.StateFingerprint)
	}
	if phase == "" {
		phase = checkpoint.Phase(checkpointPhase(s.currentState()))
	}
	payload := s.payload(files, summary, fingerprint, phase, increment)
	cp, err := checkpoint.Create(payload, reason, s.timestamp())
	if err != nil {
		return newError(CodePersistenceError, "Checkpoint persistence failed: %s", err.Error())
	}
	if s.deps.Store != nil {
		data, err := checkpoint.Serialize(cp)
		if err != nil {
			return newError(CodePersistenceError, "Checkpoint persistence failed: %s", err.Error())
		}
		var receipt port.CheckpointReceipt
		err = safeCall(func() error {
			var e error
			receipt, e = s.deps.Store.SaveCheckpoint(ctx, data)
			return e
		})
		s.latestArtifactRef = receipt.ArtifactRef
		if err != nil && faults.On(faults.CheckpointIgnoreSaveFailure) {
			err = nil
		}
		if err != nil {
			if c := persistenceCause(ctx); c != nil {
				return c
			}
			var re *Error
			if errors.As(err, &re) {
				return re
			}
			if faults.On(faults.PersistenceAsProviderError) {
				return newError(CodeProviderError, "Checkpoint persistence failed: %s", errText(err))
			}
			return newError(CodePersistenceError, "Checkpoint persistence failed: %s", errText(err))
		}
	}
	s.latestCheckpoint = cp
	s.compactionCount += increment
	if main {
		s.trace.emit(s.ctx, port.TraceCheckpoint, map[string]any{"contentHash": cp.ContentHash, "reason": cp.Reason, "schemaVersion": cp.SchemaVersion})
		s.emitEvent(Event{Type: EventCheckpoint, Checkpoint: cp.Clone(), Reason: string(reason)})
	}
	return nil
}

// persistenceCause returns the runtime error that aborted ctx, if any.
func persistenceCause(ctx context.Context) error {
	var re *Error
	if ctx.Err() != nil && errors.As(context.Cause(ctx), &re) {
		return re
	}
	return nil
}

// payload builds the checkpoint payload (RUNTIME §21.1).
func (s *session) payload(files []checkpoint.ActiveFileRecord, summary, fingerprint *string, phase checkpoint.Phase, increment int) checkpoint.Payload {
	s.mu.Lock()
	pending := make([]checkpoint.PendingApproval, 0, len(s.pending))
	for _, p := range s.pending {
		pending = append(pending, checkpoint.PendingApproval{RequestID: p.RequestID, ReturnPhase: checkpoint.Phase(checkpointPhase(p.ReturnState)),
			ToolCallID: p.ToolCallID, ToolName: p.ToolName})
	}
	s.mu.Unlock()
	slices.SortFunc(pending, func(a, b checkpoint.PendingApproval) int { return cmp.Compare(a.RequestID, b.RequestID) })
	edits := cloneEdits(s.ev.writes)
	if len(edits) > 500 {
		edits = edits[len(edits)-500:]
	}
	if faults.On(faults.CheckpointDropsEarlierEdits) && s.latestCheckpoint != nil {
		earlier := s.latestCheckpoint.SeenToolCallIDs
		edits = slices.DeleteFunc(edits, func(e checkpoint.Edit) bool { return slices.Contains(earlier, e.ToolCallID) })
	}
	instructions := []string{}
	for _, t := range s.req.Prompt.TrustedWorkspaceInstructions {
		instructions = append(instructions, t.Content)
	}
	root := s.req.WorkspaceRoot
	integ := s.integrity
	if integ == nil {
		integ = &prompt.Integrity{}
	}
	crit := make([]checkpoint.Criterion, len(s.ev.criteria))
	for i, c := range s.ev.criteria {
		c.EvidenceIDs = slices.Clone(c.EvidenceIDs)
		crit[i] = c
	}
	return checkpoint.Payload{
		AcceptanceCriteria: crit,
		Approvals:          slices.Clone(s.ev.approvals),
		Compatibility:      compatibility(*integ, s.toolSet.SnapshotHash, s.activeToolNames()),
		CompletionEvidence: checkpoint.CompletionEvidence{DiffReview: clone.Ptr(s.ev.diffReview)},
		Constraints:        append([]string{}, s.req.Constraints...),
		Decisions:          slices.Clone(s.ev.decisions),
		Delivery:           checkpoint.Delivery{AttachmentsDelivered: s.attachmentsDelivered},
		Edits:              edits,
		ExecutionBudget: checkpoint.ExecutionBudget{DeadlinePolicy: checkpoint.DeadlinePerExecutionSegment,
			PersistenceGraceMs: s.budget.PersistenceGraceMs, SegmentDeadlineMs: s.budget.DeadlineMs},
		Goal:             s.req.Goal,
		LastToolCalls:    slices.Clone(s.ev.lastToolCalls),
		NextAction:       s.ev.nextAction,
		NoProgress:       s.noProgressSnapshot(),
		OpenProblems:     slices.Clone(s.ev.openProblems),
		PendingApprovals: pending,
		Phase:            phase,
		Plan:             checkpoint.Plan{Completed: slices.Clone(s.ev.plan.Completed), InProgress: clone.Ptr(s.ev.plan.InProgress), Pending: slices.Clone(s.ev.plan.Pending)},
		ResearchSources:  slices.Clone(s.ev.research),
		RunID:            s.runID,
		SchemaVersion:    checkpoint.SchemaVersion,
		SeenToolCallIDs:  sortedKeys(s.ev.seen),
		TaskID:           s.req.TaskID,
		TokenLedgerRef:   "ledger://" + s.runID,
		Totals: checkpoint.Totals{CompactionCount: int64(s.compactionCount + increment), ModelTurns: int64(s.modelTurns),
			ToolCalls: int64(s.toolCalls)},
		Validation: cloneValidations(s.ev.validations),
		Workspace: checkpoint.Workspace{ActiveFiles: files, DirtyStateSummary: summary, Instructions: instructions,
			Root: &root, StateFingerprint: fingerprint},
	}
}

// loadResumeCheckpoint finds and checks the checkpoint a resume continues
// from (RUNTIME §10.3 step 2, DECISIONS 55).
func (s *session) loadResumeCheckpoint() (*checkpoint.Checkpoint, error) {
	data := []byte(s.req.Checkpoint)
	if len(data) > 0 {
		if s.req.CheckpointTrust != port.CheckpointTrustTrustedHost && !faults.On(faults.ResumeAcceptUntrustedCheckpoint) {
			return nil, newError(CodeCheckpointIncompatible, "A caller-provided checkpoint requires an explicit trusted_host provenance assertion.")
		}
	} else {
		if s.deps.Store == nil || s.deps.Store.CheckpointTrust() != port.CheckpointTrustTrustedHost {
			return nil, newError(CodeCheckpointIncompatible, "Checkpoint resume requires a trusted host store.")
		}
		var raw []byte
		err := safeCall(func() error {
			var e error
			raw, e = s.deps.Store.LoadLatestCheckpoint(s.ctx, s.runID)
			return e
		})
		if err != nil {
			if ctrl := s.checkControl(); ctrl != nil {
				return nil, ctrl
			}
			return nil, newError(CodeCheckpointIncompatible, "Checkpoint lookup failed: %s", errText(err))
		}
		if len(raw) == 0 || string(raw) == "null" {
			return nil, newError(CodeCheckpointIncompatible, "No checkpoint found for run %s.", s.runID)
		}
		data = raw
	}
	if faults.On(faults.ResumeSkipIntegrityCheck) {
		var cp checkpoint.Checkpoint
		if err := json.Unmarshal(data, &cp); err == nil {
			return &cp, nil
		}
	}
	cp, err := checkpoint.Assert(data)
	if err != nil {
		return nil, newError(CodeCheckpointIncompatible, "Checkpoint integrity validation failed: %s", err.Error())
	}
	return cp, nil
}

// restoreFrom checks compatibility and the workspace, then restores the
// checkpoint's evidence and counters (RUNTIME §10.3 step 9, §21.4–§21.6).
func (s *session) restoreFrom(cp *checkpoint.Checkpoint) error {
	target := checkpoint.ResumeTarget{
		RunID: s.runID, TaskID: s.req.TaskID, WorkspaceRoot: s.req.WorkspaceRoot, Integrity: *s.integrity,
		NoProgressPolicy: checkpoint.NoProgressPolicy(s.budget.NoProgressPolicy), ObservationNudgeThresholds: s.budget.ObservationNudgeThresholds,
	}
	if err := checkpoint.CheckCompatibility(cp, target); err != nil {
		return newError(CodeCheckpointIncompatible, "%s", err.Error())
	}
	if err := s.verifyWorkspace(cp); err != nil {
		return err
	}
	s.restoreEvidence(cp)
	s.latestCheckpoint = cp.Clone()
	s.attachmentsDelivered = cp.Delivery.AttachmentsDelivered
	s.modelTurns = int(cp.Totals.ModelTurns)
	s.toolCalls = int(cp.Totals.ToolCalls)
	s.compactionCount = int(cp.Totals.CompactionCount)
	return s.restoreNoProgress(cp)
}

func (s *session) verifyWorkspace(cp *checkpoint.Checkpoint) error {
	if s.deps.Verifier == nil || cp.Workspace.StateFingerprint == nil {
		return newError(CodeCheckpointIncompatible, "Checkpoint workspace evidence cannot be resumed without a captured fingerprint and host verifier.")
	}
	if faults.On(faults.ResumeSkipWorkspaceVerify) {
		return nil
	}
	var v port.Verification
	err := safeCall(func() error {
		var e error
		v, e = s.deps.Verifier.Verify(s.ctx, port.WorkspaceState{ActiveFiles: boundFiles(cp.Workspace.ActiveFiles),
			DirtyStateSummary: cp.Workspace.DirtyStateSummary, StateFingerprint: *cp.Workspace.StateFingerprint})
		return e
	})
	if err != nil {
		if ctrl := s.checkControl(); ctrl != nil {
			return ctrl
		}
		return newError(CodeCheckpointIncompatible, "Workspace verification failed: %s", errText(err))
	}
	if !v.Matches || v.CurrentFingerprint != *cp.Workspace.StateFingerprint {
		return newError(CodeCheckpointIncompatible, "Workspace state changed after the checkpoint was created.")
	}
	return nil
}

// restoreEvidence is RUNTIME §21.6 (evidence part).
func (s *session) restoreEvidence(cp *checkpoint.Checkpoint) {
	c := cp.Clone()
	s.ev.criteria = c.AcceptanceCriteria
	s.ev.approvals = c.Approvals
	s.ev.decisions = c.Decisions
	s.ev.diffReview = c.CompletionEvidence.DiffReview
	s.ev.inspected = map[string]bool{}
	for _, f := range c.Workspace.ActiveFiles {
		s.ev.inspected[f.Path] = true
	}
	s.ev.lastToolCalls = c.LastToolCalls
	for i, r := range s.ev.lastToolCalls {
		if r.IdempotencyKey == "" {
			s.ev.lastToolCalls[i].IdempotencyKey = s.runID + ":" + r.ToolCallID + ":" + r.ArgumentsHash
		}
	}
	s.ev.nextAction = c.NextAction
	s.ev.openProblems = c.OpenProblems
	s.mu.Lock()
	s.pending = nil
	for _, p := range c.PendingApprovals {
		s.pending = append(s.pending, pendingApproval{RequestID: p.RequestID, ReturnState: phaseState(string(p.ReturnPhase)), ToolCallID: p.ToolCallID, ToolName: p.ToolName})
	}
	s.mu.Unlock()
	s.ev.plan = c.Plan
	s.ev.research = c.ResearchSources
	if s.ev.research == nil {
		s.ev.research = []checkpoint.ResearchSource{}
	}
	s.ev.seen = map[string]bool{}
	for _, id := range c.SeenToolCallIDs {
		s.ev.seen[id] = true
	}
	s.ev.validations = c.Validation
	s.ev.writes = c.Edits
	if faults.On(faults.ResumeDropsEditEvidence) {
		s.ev.writes = nil
	}
}

// compatibility is the checkpoint's compatibility record: the run's
// prompt integrity with the registry snapshot hash of its tool set, and its
// active tool names.
func compatibility(integ prompt.Integrity, snapshotHash string, active []string) checkpoint.Compatibility {
	integ.RegistrySnapshotHash = snapshotHash
	return checkpoint.Compatibility{Integrity: integ, ActiveToolNames: active}
}
