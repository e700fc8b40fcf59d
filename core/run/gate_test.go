package run_test

import (
	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/run"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func codes(v run.Verdict) []string {
	var out []string
	for _, is := range v.Issues {
		out = append(out, is.Code)
	}
	return out
}

func write(path string, seq int64, fp string) checkpoint.Edit {
	return checkpoint.Edit{Path: path, BeforeHash: sp("a"), AfterHash: sp("b"), Sequence: seq, ToolCallID: "w", WorkspaceFingerprint: fp}
}

func validation(id string, status checkpoint.ValidationStatus, seq int64, fp string, paths ...string) checkpoint.ValidationRecord {
	v := checkpoint.ValidationRecord{ID: id, Detail: id + " " + string(status), Scope: checkpoint.ScopeWorkspace, Sequence: seq, Status: status, WorkspaceFingerprint: fp}
	if len(paths) > 0 {
		v.Scope, v.Paths = checkpoint.ScopePaths, paths
	}
	return v
}

var _ = Describe("the completion gate (RUNTIME §20.2)", func() {
	req := run.Requirements{RequireInspection: true}
	fp := sp("fp")
	It("passes an inspected read-only run", func() {
		Expect(run.Evaluate(req, run.Snapshot{FinalReport: "ok", InspectedWorkspace: true}).OK).To(BeTrue())
	})
	It("reports the run-state issues in emission order", func() {
		v := run.Evaluate(run.Requirements{RequireInspection: true, RequireFinalReportPersistence: true, RequireTokenLedger: true, RequireTrace: true},
			run.Snapshot{FinalReport: " ", RunningToolCalls: 1, PendingApprovals: 2, OpenProblems: []string{"p"},
				AcceptanceCriteria: []checkpoint.Criterion{{ID: "a", Required: true, Status: checkpoint.CriterionWaived}, {ID: "b", Required: false}}})
		Expect(codes(v)).To(Equal([]string{"FINAL_REPORT_EMPTY", "INSPECTION_MISSING", "RUNNING_TOOL_CALL", "PENDING_APPROVAL", "OPEN_PROBLEMS",
			"ACCEPTANCE_CRITERIA_OPEN", "FINAL_REPORT_NOT_STORED", "TOKEN_LEDGER_NOT_FINALIZED", "TRACE_NOT_FINALIZED"}))
		Expect(v.Issues[2].Detail).To(Equal("1 tool call(s) are still running."))
		Expect(v.Issues[5].Detail).To(Equal("Open criterion ids: a."), "a waived criterion does not satisfy a required one")
	})
	It("requires a later validation and a reviewed diff for a write", func() {
		snap := run.Snapshot{FinalReport: "ok", InspectedWorkspace: true, FinalWorkspaceFingerprint: fp,
			Writes: []checkpoint.Edit{write("src/a.ts", 2, "fp")}, Validations: []checkpoint.ValidationRecord{validation("unit", "passed", 2, "fp")}}
		Expect(codes(run.Evaluate(req, snap))).To(Equal([]string{"WRITE_NOT_VALIDATED", "DIFF_NOT_REVIEWED"}), "equal sequence does not validate")
		snap.Validations = []checkpoint.ValidationRecord{validation("unit", "passed", 3, "fp")}
		snap.FinalDiffReview = &checkpoint.DiffReview{DiffHash: "d", Sequence: 4, WorkspaceFingerprint: "fp"}
		Expect(run.Evaluate(req, snap).OK).To(BeTrue())
		snap.FinalWorkspaceFingerprint = sp("other")
		Expect(codes(run.Evaluate(req, snap))).To(Equal([]string{"WORKSPACE_EVIDENCE_STALE", "WRITE_NOT_VALIDATED", "DIFF_NOT_REVIEWED"}))
	})
	It("lets the later array entry win a sequence tie", func() {
		snap := run.Snapshot{FinalReport: "ok", InspectedWorkspace: true, FinalWorkspaceFingerprint: fp,
			Validations: []checkpoint.ValidationRecord{validation("unit", "passed", 2, "fp"), validation("unit", "failed", 2, "fp")}}
		Expect(codes(run.Evaluate(req, snap))).To(Equal([]string{"VALIDATION_FAILED"}))
		Expect(codes(run.Evaluate(run.Requirements{RequireValidation: true}, run.Snapshot{FinalReport: "x"}))).To(Equal([]string{"VALIDATION_MISSING"}))
	})
	It("keeps path-scoped validations through writes outside their scope (completion-gate-scope)", func() {
		snap := run.Snapshot{FinalReport: "ok", InspectedWorkspace: true, FinalWorkspaceFingerprint: fp,
			Writes:          []checkpoint.Edit{write("frontend/a.ts", 1, "fp"), write("backend/b.ts", 3, "fp"), write("README.md", 4, "fp")},
			Validations:     []checkpoint.ValidationRecord{validation("fe", "passed", 2, "fp", "frontend")},
			FinalDiffReview: &checkpoint.DiffReview{DiffHash: "d", Sequence: 5, WorkspaceFingerprint: "fp"}}
		v := run.Evaluate(req, snap)
		Expect(codes(v)).To(Equal([]string{"WRITE_NOT_VALIDATED"}))
		Expect(v.Issues[0].Detail).To(Equal("backend/b.ts has no later successful validation evidence."))
		snap.Writes = append(snap.Writes, write("frontend/c.ts", 6, "fp"))
		snap.FinalDiffReview.Sequence = 7
		Expect(codes(run.Evaluate(req, snap))).To(Equal([]string{"WORKSPACE_EVIDENCE_STALE", "WRITE_NOT_VALIDATED", "WRITE_NOT_VALIDATED", "WRITE_NOT_VALIDATED"}))
	})
	It("needs no validation for a path written then removed, and flags invalid evidence", func() {
		removed := write("src/gone.ts", 1, "fp")
		removed.AfterHash = nil
		snap := run.Snapshot{FinalReport: "ok", InspectedWorkspace: true, FinalWorkspaceFingerprint: fp,
			Writes: []checkpoint.Edit{write("src/gone.ts", 1, "fp"), removed}, FinalDiffReview: &checkpoint.DiffReview{DiffHash: "d", Sequence: 2, WorkspaceFingerprint: "fp"}}
		Expect(run.Evaluate(req, snap).OK).To(BeTrue())
		bad := write("src/x.ts", 1, "fp")
		bad.AfterHash = sp("a")
		snap.Writes = []checkpoint.Edit{bad}
		Expect(codes(run.Evaluate(req, snap))).To(Equal([]string{"WRITE_EVIDENCE_INVALID"}))
	})
	It("checks research evidence and citations", func() {
		r := run.Requirements{Research: &run.ResearchRequirements{MinSearchCalls: 1, MinFetchCalls: 1, RequireCitations: true, RequiredDomains: []string{"nodejs.org"}}}
		v := run.Evaluate(r, run.Snapshot{FinalReport: "x"})
		Expect(v.Issues[0]).To(Equal(run.Issue{Code: "RESEARCH_EVIDENCE_MISSING", Detail: "Missing research evidence: search calls 0/1, fetch calls 0/1, fetched domain nodejs.org."}))
		Expect(codes(v)).To(Equal([]string{"RESEARCH_EVIDENCE_MISSING", "RESEARCH_CITATION_MISSING"}))
		src := []run.GateSource{{Kind: "search", ToolCallID: "s", URL: "https://nodejs.org/api/"}, {Kind: "fetch", ToolCallID: "f", ContentHash: sp("h"), URL: "https://nodejs.org/api/globals.html"}}
		v = run.Evaluate(r, run.Snapshot{FinalReport: "See https://nodejs.org/api/globals.html and https://example.invalid/x.", ResearchSources: src})
		Expect(codes(v)).To(Equal([]string{"RESEARCH_CITATION_UNSUPPORTED"}))
		Expect(v.Issues[0].Detail).To(Equal("The final report cites 1 URL(s) without successful fetch evidence: https://example.invalid/x. Cite only URLs returned by successful fetch calls."))
	})
	It("extracts citations from Markdown emphasis and colon forms (RUNTIME §31)", func() {
		text := "**Fetched — https://developer.mozilla.org/en-US/docs/Web/API/Window/fetch**:\n**Fetched — https://nodejs.org/api/globals.html**:\n*Italic — https://nodejs.org/api/process.html*:\n`Code — https://example.invalid/docs`\nhttps://nodejs.org/api/globals.html**:\nhttps://en.wikipedia.org/wiki/Retry_(pattern))."
		Expect(run.ResearchCitations(text)).To(Equal([]string{"https://developer.mozilla.org/en-US/docs/Web/API/Window/fetch",
			"https://nodejs.org/api/globals.html", "https://nodejs.org/api/process.html", "https://example.invalid/docs", "https://en.wikipedia.org/wiki/Retry_(pattern)"}))
	})
	DescribeTable("IsDocumentationPath (completion-gate-scope)",
		func(p string, want bool) { Expect(run.IsDocumentationPath(p)).To(Equal(want)) },
		Entry(nil, "README.md", true), Entry(nil, "docs/setup.md", true), Entry(nil, "documentation/api.txt", true),
		Entry(nil, "LICENSE", true), Entry(nil, "CHANGELOG.md", true), Entry(nil, `docs\guide\intro.mdx`, true),
		Entry(nil, "frontend/vite.config.ts", false), Entry(nil, "src/main.ts", false), Entry(nil, "backend/package.json", false), Entry(nil, "docs.ts", false),
	)
})
