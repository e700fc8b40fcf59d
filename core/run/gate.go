package run

import (
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/faults"
)

// Completion issue codes (RUNTIME §8.3), in the gate's emission order.
const (
	IssueFinalReportEmpty            = "FINAL_REPORT_EMPTY"
	IssueInspectionMissing           = "INSPECTION_MISSING"
	IssueRunningToolCall             = "RUNNING_TOOL_CALL"
	IssuePendingApproval             = "PENDING_APPROVAL"
	IssueResearchEvidenceMissing     = "RESEARCH_EVIDENCE_MISSING"
	IssueResearchCitationMissing     = "RESEARCH_CITATION_MISSING"
	IssueResearchCitationUnsupported = "RESEARCH_CITATION_UNSUPPORTED"
	IssueOpenProblems                = "OPEN_PROBLEMS"
	IssueAcceptanceCriteriaOpen      = "ACCEPTANCE_CRITERIA_OPEN"
	IssueWorkspaceEvidenceStale      = "WORKSPACE_EVIDENCE_STALE"
	IssueValidationFailed            = "VALIDATION_FAILED"
	IssueValidationMissing           = "VALIDATION_MISSING"
	IssueWriteEvidenceInvalid        = "WRITE_EVIDENCE_INVALID"
	IssueWriteNotValidated           = "WRITE_NOT_VALIDATED"
	IssueDiffNotReviewed             = "DIFF_NOT_REVIEWED"
	IssueFinalReportNotStored        = "FINAL_REPORT_NOT_STORED"
	IssueTokenLedgerNotFinalized     = "TOKEN_LEDGER_NOT_FINALIZED"
	IssueTraceNotFinalized           = "TRACE_NOT_FINALIZED"
)

// Requirements are the gate's completion requirements (RUNTIME §20.1) after
// defaults are applied: every field is decided.
type Requirements struct {
	RequireFinalReportPersistence bool
	RequireInspection             bool
	RequireTokenLedger            bool
	RequireTrace                  bool
	RequireValidation             bool
	Research                      *ResearchRequirements
}

// ResearchRequirements are the research completion requirements.
type ResearchRequirements struct {
	MinFetchCalls    int
	MinSearchCalls   int
	RequireCitations bool
	RequiredDomains  []string
}

// GateSource is one research source as the gate sees it.
type GateSource struct {
	ContentHash *string `json:"contentHash"`
	Kind        string  `json:"kind"`
	ToolCallID  string  `json:"toolCallId"`
	URL         string  `json:"url"`
}

// Snapshot is the evidence the gate evaluates (RUNTIME §20.1
// AiCoderCompletionSnapshot).
type Snapshot struct {
	AcceptanceCriteria        []checkpoint.Criterion
	FinalDiffReview           *checkpoint.DiffReview
	FinalReport               string
	FinalReportStored         bool
	FinalWorkspaceFingerprint *string
	InspectedWorkspace        bool
	OpenProblems              []string
	PendingApprovals          int
	ResearchSources           []GateSource
	RunningToolCalls          int
	TokenLedgerFinalized      bool
	TraceFinalized            bool
	Validations               []checkpoint.ValidationRecord
	Writes                    []checkpoint.Edit
}

// An Issue is one reason the gate refuses completion.
type Issue struct {
	Code   string `json:"code"`
	Detail string `json:"detail"`
}

// A Verdict is the gate's answer: OK iff there are no issues.
type Verdict struct {
	Issues []Issue `json:"issues"`
	OK     bool    `json:"ok"`
}

// Evaluate is the completion gate (RUNTIME §20.2): it checks snap against req
// and returns every issue in the spec's emission order.
func Evaluate(req Requirements, snap Snapshot) Verdict {
	var issues []Issue
	add := func(code, format string, args ...any) {
		issues = append(issues, Issue{Code: code, Detail: fmt.Sprintf(format, args...)})
	}
	if canon.IsBlank(snap.FinalReport) {
		add(IssueFinalReportEmpty, "The final user-facing report is empty.")
	}
	if req.RequireInspection && !snap.InspectedWorkspace {
		add(IssueInspectionMissing, "Workspace inspection evidence is missing.")
	}
	if snap.RunningToolCalls > 0 {
		add(IssueRunningToolCall, "%d tool call(s) are still running.", snap.RunningToolCalls)
	}
	if snap.PendingApprovals > 0 {
		add(IssuePendingApproval, "%d approval request(s) are still pending.", snap.PendingApprovals)
	}
	if req.Research != nil {
		issues = append(issues, researchIssues(*req.Research, snap)...)
	}
	if len(snap.OpenProblems) > 0 {
		add(IssueOpenProblems, "%d unresolved problem(s) remain.", len(snap.OpenProblems))
	}
	var open []string
	for _, c := range snap.AcceptanceCriteria {
		if c.Required && c.Status != checkpoint.CriterionSatisfied {
			open = append(open, c.ID)
		}
	}
	if len(open) > 0 {
		add(IssueAcceptanceCriteriaOpen, "Open criterion ids: %s.", strings.Join(open, ", "))
	}
	effective := effectiveValidations(snap.Validations)
	// Core fault: a failed validation counts as a passing one.
	if faults.On(faults.GateAcceptFailedValidation) {
		for i := range effective {
			if effective[i].Status == checkpoint.ValidationFailed {
				effective[i].Status = checkpoint.ValidationPassed
			}
		}
	}
	drifted := workspaceDrifted(snap, effective)
	isCurrent := func(v checkpoint.ValidationRecord) bool {
		if drifted {
			return false
		}
		// Core fault: later writes never make a validation stale.
		if faults.On(faults.GateWriteKeepsValidation) {
			return true
		}
		for _, w := range snap.Writes {
			// Core fault: documentation writes void validations too.
			doc := IsDocumentationPath(w.Path)
			if faults.On(faults.GateDocWriteVoidsValidation) {
				doc = false
			}
			if w.Sequence > v.Sequence && !doc && validationCovers(v, w.Path) {
				return false
			}
		}
		return true
	}
	var stale, failed []string
	hasCurrentPass := false
	for _, v := range effective {
		if !isCurrent(v) {
			stale = append(stale, v.ID)
			continue
		}
		switch v.Status {
		case checkpoint.ValidationFailed:
			failed = append(failed, v.ID)
		case checkpoint.ValidationPassed:
			hasCurrentPass = true
		}
	}
	if len(stale) > 0 {
		add(IssueWorkspaceEvidenceStale, "Stale validation ids: %s.", strings.Join(stale, ", "))
	}
	if len(failed) > 0 {
		add(IssueValidationFailed, "Failed validation ids: %s.", strings.Join(failed, ", "))
	}
	if req.RequireValidation && !hasCurrentPass {
		add(IssueValidationMissing, "A successful validation result is required.")
	}
	removed := map[string]bool{}
	for _, w := range snap.Writes {
		if w.AfterHash == nil {
			removed[normalizePath(w.Path)] = true
		}
	}
	for _, w := range snap.Writes {
		if canon.IsBlank(w.Path) || canon.IsBlank(w.WorkspaceFingerprint) || !checkpoint.IsMutationEvidence(w) {
			p := w.Path
			if canon.IsBlank(p) {
				p = "<blank>"
			}
			add(IssueWriteEvidenceInvalid, "%s does not contain valid mutation evidence.", p)
			continue
		}
		if w.AfterHash == nil || removed[normalizePath(w.Path)] || IsDocumentationPath(w.Path) {
			continue
		}
		validated := false
		for _, v := range effective {
			if v.Status == checkpoint.ValidationPassed && v.Sequence > w.Sequence && isCurrent(v) && validationCovers(v, w.Path) {
				validated = true
				break
			}
		}
		if !validated {
			add(IssueWriteNotValidated, "%s has no later successful validation evidence.", w.Path)
		}
	}
	if len(snap.Writes) > 0 {
		last := int64(0)
		for _, w := range snap.Writes {
			last = max(last, w.Sequence)
		}
		r := snap.FinalDiffReview
		reviewed := r != nil && snap.FinalWorkspaceFingerprint != nil && r.Sequence > last &&
			r.WorkspaceFingerprint == *snap.FinalWorkspaceFingerprint && !canon.IsBlank(r.DiffHash)
		// Core fault: any diff review counts, even one made before the last
		// write (neither its sequence nor its fingerprint is compared).
		if faults.On(faults.GateAcceptStaleDiffReview) {
			reviewed = r != nil && !canon.IsBlank(r.DiffHash)
		}
		if !reviewed {
			add(IssueDiffNotReviewed, "The final diff has not been reviewed after workspace mutation.")
		}
	}
	if req.RequireFinalReportPersistence && !snap.FinalReportStored {
		add(IssueFinalReportNotStored, "The final report has not been persisted.")
	}
	if req.RequireTokenLedger && !snap.TokenLedgerFinalized {
		add(IssueTokenLedgerNotFinalized, "The token ledger has not been finalized.")
	}
	if req.RequireTrace && !snap.TraceFinalized {
		add(IssueTraceNotFinalized, "The trace has not been finalized.")
	}
	return Verdict{Issues: issues, OK: len(issues) == 0}
}

// effectiveValidations keeps the latest record per id; a later array entry
// wins a sequence tie. The result keeps first-appearance order of ids.
func effectiveValidations(all []checkpoint.ValidationRecord) []checkpoint.ValidationRecord {
	idx := map[string]int{}
	var out []checkpoint.ValidationRecord
	for _, v := range all {
		i, ok := idx[v.ID]
		if !ok {
			idx[v.ID] = len(out)
			out = append(out, v)
			continue
		}
		// Core fault: the oldest record of an id wins.
		if v.Sequence >= out[i].Sequence && !faults.On(faults.GateOldestValidationWins) {
			out[i] = v
		}
	}
	return out
}

type tracked struct {
	seq int64
	fp  string
}

func workspaceDrifted(snap Snapshot, effective []checkpoint.ValidationRecord) bool {
	if snap.FinalWorkspaceFingerprint == nil {
		// Core fault: a missing final fingerprint counts as no drift.
		if faults.On(faults.GateMissingFingerprintFresh) {
			return false
		}
		return true
	}
	var latest *tracked
	consider := func(t tracked) {
		if latest == nil || t.seq >= latest.seq {
			latest = &t
		}
	}
	for _, w := range snap.Writes {
		consider(tracked{w.Sequence, w.WorkspaceFingerprint})
	}
	for _, v := range effective {
		consider(tracked{v.Sequence, v.WorkspaceFingerprint})
	}
	if r := snap.FinalDiffReview; r != nil {
		consider(tracked{r.Sequence, r.WorkspaceFingerprint})
	}
	return latest != nil && latest.fp != *snap.FinalWorkspaceFingerprint
}

func normalizePath(p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	return strings.TrimPrefix(p, "./")
}

func normalizeScope(s string) string {
	s = strings.TrimSuffix(normalizePath(s), "/")
	if s == "" {
		return "."
	}
	return s
}

func scopeCovers(scope, path string) bool {
	scope, path = normalizeScope(scope), normalizePath(path)
	return scope == "." || scope == path || strings.HasPrefix(path, scope+"/")
}

// validationCovers applies the covering rule of RUNTIME §20.4.
func validationCovers(v checkpoint.ValidationRecord, path string) bool {
	if v.Scope == checkpoint.ScopeWorkspace {
		return true
	}
	for _, p := range v.Paths {
		if scopeCovers(p, path) {
			return true
		}
	}
	return false
}

var (
	docSegment  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)(^|/)(doc|docs|documentation)/`) })
	docSuffix   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\.(md|mdx|txt)$`) })
	docLeafName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(LICENSE|CHANGELOG|NOTICE|AUTHORS)(\.[A-Za-z]+)?$`) })
)

// IsDocumentationPath reports whether path is documentation (RUNTIME §20.4):
// a doc/, docs/ or documentation/ segment, a .md, .mdx or .txt suffix, or a
// LICENSE, CHANGELOG, NOTICE or AUTHORS leaf. Documentation writes neither
// void validations nor need one.
func IsDocumentationPath(path string) bool {
	p := normalizePath(path)
	if docSegment().MatchString(p) || docSuffix().MatchString(p) {
		return true
	}
	leaf := p[strings.LastIndex(p, "/")+1:]
	return docLeafName().MatchString(leaf)
}

func researchIssues(r ResearchRequirements, snap Snapshot) []Issue {
	var issues []Issue
	search, fetch := map[string]bool{}, map[string]bool{}
	var fetched []GateSource
	for _, s := range snap.ResearchSources {
		switch s.Kind {
		case "search":
			search[s.ToolCallID] = true
		case "fetch":
			if s.ContentHash != nil && !canon.IsBlank(*s.ContentHash) {
				fetch[s.ToolCallID] = true
				fetched = append(fetched, s)
			}
		}
	}
	var missing []string
	if len(search) < r.MinSearchCalls {
		missing = append(missing, fmt.Sprintf("search calls %d/%d", len(search), r.MinSearchCalls))
	}
	if len(fetch) < r.MinFetchCalls {
		missing = append(missing, fmt.Sprintf("fetch calls %d/%d", len(fetch), r.MinFetchCalls))
	}
	for _, d := range r.RequiredDomains {
		covered := false
		for _, s := range fetched {
			if u, err := url.Parse(s.URL); err == nil {
				h := strings.ToLower(u.Hostname())
				if h == d || strings.HasSuffix(h, "."+d) {
					covered = true
					break
				}
			}
		}
		if !covered {
			missing = append(missing, "fetched domain "+d)
		}
	}
	if len(missing) > 0 {
		issues = append(issues, Issue{IssueResearchEvidenceMissing, "Missing research evidence: " + strings.Join(missing, ", ") + "."})
	}
	if r.RequireCitations {
		cites := false
		for _, s := range fetched {
			if strings.Contains(snap.FinalReport, s.URL) {
				cites = true
				break
			}
		}
		if !cites {
			issues = append(issues, Issue{IssueResearchCitationMissing, "The final report must cite at least one successfully fetched source URL."})
		}
		if len(fetched) > 0 {
			known := map[string]bool{}
			for _, s := range fetched {
				if c, ok := CanonicalResearchURL(s.URL); ok {
					known[c] = true
				}
			}
			var unsupported []string
			for _, c := range ResearchCitations(snap.FinalReport) {
				if !known[c] {
					unsupported = append(unsupported, c)
				}
			}
			if len(unsupported) > 0 {
				shown := unsupported[:min(8, len(unsupported))]
				issues = append(issues, Issue{IssueResearchCitationUnsupported, fmt.Sprintf(
					"The final report cites %d URL(s) without successful fetch evidence: %s. Cite only URLs returned by successful fetch calls.",
					len(unsupported), strings.Join(shown, ", "))})
			}
		}
	}
	return issues
}

// CanonicalResearchURL canonicalizes a research URL (RUNTIME §31): http(s)
// only, no user name or password, fragment dropped, WHATWG-style
// normalization. It reports false for a URL it rejects.
func CanonicalResearchURL(raw string) (string, bool) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.User != nil || u.Host == "" {
		return "", false
	}
	u.Fragment, u.RawFragment = "", ""
	u.Scheme = strings.ToLower(u.Scheme)
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if (u.Scheme == "http" && port == "80") || (u.Scheme == "https" && port == "443") {
		port = ""
	}
	if port != "" {
		host += ":" + port
	}
	u.Host = host
	if u.Path == "" {
		u.Path = "/"
	}
	return u.String(), true
}

var citationPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("https?://[^\\s<>\"`\\[\\]]+") })

// ResearchCitations extracts the cited URLs of a report (RUNTIME §31,
// DECISIONS 21): trailing punctuation and Markdown emphasis are stripped
// repeatedly, unbalanced closing parentheses dropped, URLs canonicalized and
// de-duplicated in first-occurrence order.
func ResearchCitations(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range citationPattern().FindAllString(text, -1) {
		for {
			before := m
			m = strings.TrimRight(m, ",.;:!?")
			m = strings.TrimRight(m, "*_`")
			if m == before {
				break
			}
		}
		for strings.HasSuffix(m, ")") && strings.Count(m, ")") > strings.Count(m, "(") {
			m = m[:len(m)-1]
		}
		c, ok := CanonicalResearchURL(m)
		if !ok || seen[c] {
			continue
		}
		seen[c] = true
		out = append(out, c)
	}
	return out
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
