package run

import (
	"encoding/json"
	"errors"
	"sort"
	"strings"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/clone"
	"github.com/galaxy-stack/conform/core/faults"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/prompt"
)

var hostOwnedIssues = []string{IssueFinalReportNotStored, IssueTokenLedgerNotFinalized, IssueTraceNotFinalized}

// requirements resolves the completion requirements of a completion attempt
// (RUNTIME §20.3); modelEvidence forces the host-owned duties off.
func (s *session) requirements(modelEvidence bool) Requirements {
	c := s.req.Completion
	if c == nil {
		c = &prompt.Completion{}
	}
	pick := func(p *bool, def bool) bool {
		if p != nil {
			return *p
		}
		return def
	}
	r := Requirements{
		RequireFinalReportPersistence: pick(c.RequireFinalReportPersistence, s.deps.Store != nil),
		// A non-coding profile's false default is in the request snapshot
		// (prompt.Request.Snapshot, RUNTIME §4.4).
		RequireInspection:  pick(c.RequireInspection, true),
		RequireTokenLedger: pick(c.RequireTokenLedger, true),
		RequireTrace:       pick(c.RequireTrace, s.deps.Trace != nil),
		RequireValidation:  pick(c.RequireValidation, s.req.ModeOrDefault() == port.ModeValidateOnly),
	}
	if c.Research != nil {
		rr := &ResearchRequirements{RequireCitations: c.Research.RequireCitations != nil && *c.Research.RequireCitations,
			RequiredDomains: append([]string(nil), c.Research.RequiredDomains...)}
		if c.Research.MinFetchCalls != nil {
			rr.MinFetchCalls = int(*c.Research.MinFetchCalls)
		}
		if c.Research.MinSearchCalls != nil {
			rr.MinSearchCalls = int(*c.Research.MinSearchCalls)
		}
		r.Research = rr
	}
	if modelEvidence {
		r.RequireFinalReportPersistence, r.RequireTokenLedger, r.RequireTrace = false, false, false
	}
	return r
}

// snapshot builds the gate snapshot of the run's evidence.
func (s *session) snapshot(report string, stored bool, fp *string) Snapshot {
	sources := make([]GateSource, 0, len(s.ev.research))
	for _, r := range s.ev.research {
		sources = append(sources, GateSource{ContentHash: clone.Ptr(r.ContentHash), Kind: string(r.Kind), ToolCallID: r.ToolCallID, URL: r.URL})
	}
	crit := make([]checkpoint.Criterion, len(s.ev.criteria))
	copy(crit, s.ev.criteria)
	return Snapshot{
		AcceptanceCriteria: crit, FinalDiffReview: clone.Ptr(s.ev.diffReview), FinalReport: report, FinalReportStored: stored,
		FinalWorkspaceFingerprint: fp, InspectedWorkspace: len(s.ev.inspected) > 0, OpenProblems: append([]string(nil), s.ev.openProblems...),
		PendingApprovals: s.pendingCount(), ResearchSources: sources, RunningToolCalls: s.activeToolCalls,
		TokenLedgerFinalized: s.ledgerTurn == s.modelTurns, TraceFinalized: s.trace.isFinalized(),
		Validations: s.ev.validations, Writes: s.ev.writes,
	}
}

// finalFingerprint captures a fresh fingerprint when writes, validations or
// a diff review exist, else returns nil.
func (s *session) finalFingerprint() (*string, error) {
	if len(s.ev.writes) == 0 && len(s.ev.validations) == 0 && s.ev.diffReview == nil {
		return nil, nil
	}
	fp, err := s.captureFingerprint(nil, nil)
	if err != nil {
		return nil, err
	}
	return &fp, nil
}

// tryComplete is the completion attempt (RUNTIME §20.3). It reports whether
// the run completed; a rejection under the budget returns false.
func (s *session) tryComplete(report string) (bool, error) {
	modelReq := s.requirements(true)
	fp, err := s.finalFingerprint()
	if err != nil {
		return false, err
	}
	verdict := Evaluate(modelReq, s.snapshot(report, false, fp))
	stored := false
	if verdict.OK {
		full := s.requirements(false)
		if full.RequireFinalReportPersistence && s.deps.Store == nil {
			return false, newError(CodePersistenceError, "Final report persistence is required, but the host did not configure a run store.")
		}
		if s.deps.Store != nil {
			if err := s.saveFinalReport(report); err != nil {
				return false, err
			}
			stored = true
			if err := s.checkControl(); err != nil {
				return false, err
			}
		}
		if fp, err = s.finalFingerprint(); err != nil {
			return false, err
		}
		verdict = Evaluate(modelReq, s.snapshot(report, stored, fp))
	}
	issues := verdict.Issues
	if issues == nil {
		issues = []Issue{}
	}
	s.trace.emit(s.ctx, port.TraceCompletionGate, map[string]any{"issues": issues, "ok": verdict.OK, "targetState": StateCompleted})
	s.trace.flush(s.ctx)
	if fp, err = s.finalFingerprint(); err != nil {
		return false, err
	}
	verdict = Evaluate(modelReq, s.snapshot(report, stored, fp))
	if verdict.OK {
		verdict = Evaluate(s.requirements(false), s.snapshot(report, stored, fp))
	}
	if err := s.checkControl(); err != nil {
		return false, err
	}
	if !verdict.OK {
		return false, s.reject(report, verdict)
	}
	s.mu.Lock()
	t, err := s.sm.apply(StateCompleted, "Completion gate passed with deterministic evidence.", s.timestamp())
	s.mu.Unlock()
	if err != nil {
		return false, err
	}
	if t != nil {
		s.emitEvent(Event{Type: EventState, Transition: t})
	}
	return true, nil
}

// reject handles a refused completion (RUNTIME §20.3 step 6).
func (s *session) reject(report string, verdict Verdict) error {
	var msgs []string
	hostOnly := true
	for _, is := range verdict.Issues {
		msgs = append(msgs, is.Code+": "+is.Detail)
		hostOnly = hostOnly && contains(hostOwnedIssues, is.Code)
	}
	if hostOnly {
		return newError(CodePersistenceError, "Completion finalization failed: %s", strings.Join(msgs, " "))
	}
	s.completionRejections++
	research := s.researchEvidence(report)
	s.emitEvent(Event{Type: EventCompletionRejected, Candidate: report, Issues: msgs, ResearchEvidence: &research})
	s.addFeedback(gateFeedback(msgs, verdict.Issues, s.hasGit(), research))
	if s.completionRejections >= s.budget.MaxCompletionRejections {
		return newError(CodeNoProgress, "Completion gate failed %d times.", s.completionRejections)
	}
	return nil
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// researchEvidence summarizes research sources for a completion_rejected
// event (RUNTIME §20.3).
func (s *session) researchEvidence(candidate string) ResearchEvidence {
	fetched, searchOnly := map[string]bool{}, map[string]bool{}
	sources := []GateSource{}
	for _, r := range s.ev.research {
		sources = append(sources, GateSource{ContentHash: clone.Ptr(r.ContentHash), Kind: string(r.Kind), ToolCallID: r.ToolCallID, URL: r.URL})
		c, ok := CanonicalResearchURL(r.URL)
		if !ok {
			continue
		}
		if r.Kind == checkpoint.ResearchFetch && r.ContentHash != nil && !canon.IsBlank(*r.ContentHash) {
			fetched[c] = true
		}
	}
	for _, r := range s.ev.research {
		if c, ok := CanonicalResearchURL(r.URL); ok && r.Kind == checkpoint.ResearchSearch && !fetched[c] {
			searchOnly[c] = true
		}
	}
	sort.Slice(sources, func(i, j int) bool {
		a, b := sources[i], sources[j]
		return a.Kind+"\x00"+a.URL+"\x00"+a.ToolCallID < b.Kind+"\x00"+b.URL+"\x00"+b.ToolCallID
	})
	unsupported := map[string]bool{}
	for _, c := range ResearchCitations(candidate) {
		if !fetched[c] {
			unsupported[c] = true
		}
	}
	return ResearchEvidence{FetchedURLs: sortedKeys(fetched), SearchOnlyURLs: sortedKeys(searchOnly), Sources: sources, UnsupportedCitations: sortedKeys(unsupported)}
}

// finalReport is AiCoderFinalReport (RUNTIME §7).
type finalReport struct {
	CompletedAt string                        `json:"completedAt"`
	Content     string                        `json:"content"`
	RunID       string                        `json:"runId"`
	TaskID      string                        `json:"taskId"`
	Validation  []checkpoint.ValidationRecord `json:"validation"`
	Writes      []checkpoint.Edit             `json:"writes"`
}

func (s *session) saveFinalReport(report string) error {
	data, err := json.Marshal(finalReport{CompletedAt: s.timestamp(), Content: report, RunID: s.runID, TaskID: s.req.TaskID,
		Validation: cloneValidations(s.ev.validations), Writes: cloneEdits(s.ev.writes)})
	if err != nil {
		return newError(CodePersistenceError, "Final report persistence failed: %s", err.Error())
	}
	err = safeCall(func() error { return s.deps.Store.SaveFinalReport(s.ctx, data) })
	if err == nil || faults.On(faults.CompleteDespiteReportFailure) {
		return nil
	}
	if ctrl := s.checkControl(); ctrl != nil {
		return ctrl
	}
	var re *Error
	if errors.As(err, &re) {
		return re
	}
	return newError(CodePersistenceError, "Final report persistence failed: %s", errText(err))
}
