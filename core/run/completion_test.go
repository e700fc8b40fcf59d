package run_test

import (
	"fmt"
	"strings"

	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/prompt"
	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/doubles/model"
	"github.com/galaxy-stack/conform/doubles/store"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("the completion attempt (RUNTIME §20.3)", func() {
	DescribeTable("takes the inspection default from the request snapshot's agent profile (RUNTIME §4.4)",
		func(profile string, completes bool) {
			req := baseRequest("run-profile-" + profile)
			req.Prompt.AgentProfile = profile
			req.Budget.MaxCompletionRejections = run.N(1)
			r := scripted(text("Answered without tools.")).start(req)
			if completes {
				Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
			} else {
				Expect(r.Status).To(Equal(run.StatusFailed))
				Expect(r.ErrorCode).To(Equal(run.CodeNoProgress), "the gate rejects the uninspected report")
			}
		},
		Entry("coding requires inspection", "coding", false),
		Entry("assistant does not", "assistant", true),
		Entry("research does not", "research", true),
	)

	It("rejects premature reports with remediation and fails NO_PROGRESS at the rejection budget", func() {
		m := model.NewScripted([]model.Round{calls(call("workspace_list", "l")), calls(call("workspace_write", "w")),
			text("Done early."), calls(call("project_validate", "v")), text("Done, validated."), text("Done again.")})
		e := newEnv(m)
		e.verifier = newVerifier()
		e.exec.tools = append(e.exec.tools[1:], testTool{name: "git_operation", canonical: "git.exec", caps: []string{"approval", "diff_review", "inspect"}})
		r := e.start(baseRequest("run-premature"))
		Expect(r.ErrorCode).To(Equal(run.CodeNoProgress))
		Expect(r.ErrorMessage).To(Equal("Completion gate failed 3 times."))
		rejected := e.eventsOf(run.EventCompletionRejected)
		Expect(rejected).To(HaveLen(3))
		Expect(rejected[0].Issues).To(Equal([]string{"WRITE_NOT_VALIDATED: src/a.ts has no later successful validation evidence.",
			"DIFF_NOT_REVIEWED: The final diff has not been reviewed after workspace mutation."}))
		Expect(rejected[1].Issues).To(Equal([]string{"DIFF_NOT_REVIEWED: The final diff has not been reviewed after workspace mutation."}))
		Expect(rejected[0].Candidate).To(Equal("Done early."))
		feedback := m.Requests()[3].Messages
		fb := feedback[len(feedback)-1].Content
		Expect(fb).To(HavePrefix("[GALAXY COMPLETION GATE FEEDBACK"))
		Expect(fb).To(And(ContainSubstring("git_operation"), ContainSubstring("search_tools"), ContainSubstring("run_command")))
	})

	It("never shows FINAL_REPORT_NOT_STORED to the model when a store exists, and saves one report", func() {
		st := store.NewRunStore()
		e := scripted(calls(call("workspace_list", "l")), text("Inspected."))
		e.store = st
		e.complete(baseRequest("run-store"))
		Expect(st.FinalReportHistory()).To(HaveLen(1))
		rep := decodeJSON(st.FinalReport("run-store"))
		Expect(rep["content"]).To(Equal("Inspected."))
		Expect(rep["taskId"]).To(Equal("task-test"))
		Expect(e.eventsOf(run.EventCompletionRejected)).To(BeEmpty())
	})

	It("fails PERSISTENCE_ERROR without another model turn when the final report save commits then throws", func() {
		inner := store.NewRunStore()
		m := model.NewScripted([]model.Round{calls(call("workspace_list", "l")), text("Inspected."), text("unused")})
		e := newEnv(m)
		e.store = store.NewFailingRunStore(inner, store.Fault{Op: store.OpReport, Nth: 1, Committed: true})
		r := e.start(baseRequest("run-report-fail"))
		Expect(r.ErrorCode).To(Equal(run.CodePersistenceError))
		Expect(r.ErrorMessage).To(HavePrefix("Final report persistence failed: "))
		Expect(inner.CheckpointReasons()).To(Equal([]string{"failure"}))
		Expect(m.RequestCount()).To(Equal(2))
	})

	It("requires persistence when asked and no store exists", func() {
		t := true
		req := baseRequest("run-no-store")
		req.Completion = &prompt.Completion{RequireFinalReportPersistence: &t}
		r := scripted(calls(call("workspace_list", "l")), text("Inspected.")).start(req)
		Expect(r.ErrorMessage).To(Equal("Final report persistence is required, but the host did not configure a run store."))
	})

	DescribeTable("a trace that cannot be finalized ends PERSISTENCE_ERROR mentioning TRACE_NOT_FINALIZED",
		func(fault store.Fault) {
			m := model.NewScripted([]model.Round{calls(call("workspace_list", "l")), text("Inspected."), text("unused")})
			e := newEnv(m)
			e.trace = store.NewFailingTrace(store.NewTrace(), fault)
			req := baseRequest("run-trace-fail")
			req.Budget.MaxCompletionRejections = run.N(1)
			r := e.start(req)
			Expect(r.ErrorCode).To(Equal(run.CodePersistenceError))
			Expect(r.ErrorMessage).To(ContainSubstring("TRACE_NOT_FINALIZED"))
			Expect(m.RequestCount()).To(Equal(2))
		},
		Entry("flush failure", store.Fault{Op: store.OpFlush, Nth: 1}),
		Entry("an earlier emit failure", store.Fault{Op: store.OpAppend, Nth: 1}),
	)

	It("fails MAX_TURNS when the turns run out", func() {
		req := baseRequest("run-turns")
		req.Budget.MaxTurns = run.N(2)
		r := scripted(calls(call("workspace_list", "a")), calls(call("workspace_list", "b")), text("late")).start(req)
		Expect(r.ErrorCode).To(Equal(run.CodeMaxTurns))
		Expect(r.ErrorMessage).To(Equal("AI Coder reached maxTurns=2."))
	})

	It("treats a required open criterion as model-fixable", func() {
		req := baseRequest("run-criteria")
		req.AcceptanceCriteria = []prompt.Criterion{{ID: "ac-1", Text: "Invalid e-mail is rejected"}}
		req.Budget.MaxCompletionRejections = run.N(1)
		e := scripted(calls(call("workspace_list", "l")), text("Done."))
		r := e.start(req)
		Expect(r.ErrorCode).To(Equal(run.CodeNoProgress))
		Expect(strings.Join(e.eventsOf(run.EventCompletionRejected)[0].Issues, "")).To(Equal("ACCEPTANCE_CRITERIA_OPEN: Open criterion ids: ac-1."))
	})
})

// completionGateIssues is the issues member of each completion_gate trace
// event of tr, decoded.
func completionGateIssues(tr *store.Trace) []any {
	var out []any
	for _, ev := range tr.Events() {
		if ev.Kind == port.TraceCompletionGate {
			out = append(out, decodeJSON(ev.Payload)["issues"])
		}
	}
	return out
}

var _ = Describe("the completion gate at its edges (RUNTIME §20)", func() {
	It("traces an empty issue list, not null, for a completion that passes", func() {
		tr := store.NewTrace()
		e := scripted(calls(call("workspace_list", "l")), text("Inspected and reported."))
		e.trace = tr
		e.complete(baseRequest("run-gate-trace-pass"))
		Expect(completionGateIssues(tr)).To(Equal([]any{[]any{}}))
	})

	It("traces the issues of a refused completion", func() {
		tr := store.NewTrace()
		e := scripted(calls(call("workspace_list", "l")), text("Reported without validation."))
		e.trace = tr
		e.rejectedForValidation(baseRequest("run-gate-trace-refused"))
		issues := completionGateIssues(tr)
		Expect(issues).To(HaveLen(1))
		Expect(issues[0]).NotTo(BeEmpty())
	})

	It("announces the transition to completed as a state event", func() {
		e := scripted(calls(call("workspace_list", "l")), text("Inspected and reported."))
		r := e.complete(baseRequest("run-gate-state-event"))
		states := e.eventsOf(run.EventState)
		Expect(states).NotTo(BeEmpty())
		last := states[len(states)-1].Transition
		Expect(last).NotTo(BeNil())
		Expect(last.To).To(Equal(run.StateCompleted))
		Expect(transitions(r)[len(r.Transitions)-1]).To(HaveSuffix("->" + run.StateCompleted))
	})

	It("tells fetched, search-only and unsupported URLs apart in a rejection, its sources sorted by kind, URL and call", func() {
		sources := map[string][]port.ResearchSource{
			"f": {searched("https://b.example/page", "b listed"), fetched("https://b.example/page", "b read"), searched("https://a.example/doc", "a listed")},
		}
		e := scripted(calls(argCall("research_fetch", "f", map[string]any{})), text("See https://b.example/page and https://c.example/other."))
		e.exec.tools = append(e.exec.tools, researchTool(sources))
		e.rejectedForValidation(baseRequest("run-gate-research-evidence"))
		rejected := e.eventsOf(run.EventCompletionRejected)
		Expect(rejected).To(HaveLen(1))
		ev := rejected[0].ResearchEvidence
		Expect(ev).NotTo(BeNil())
		Expect(ev.FetchedURLs).To(Equal([]string{"https://b.example/page"}))
		Expect(ev.SearchOnlyURLs).To(Equal([]string{"https://a.example/doc"}))
		Expect(ev.UnsupportedCitations).To(Equal([]string{"https://c.example/other"}))
		var keys []string
		for _, s := range ev.Sources {
			keys = append(keys, s.Kind+" "+s.URL)
		}
		Expect(keys).To(Equal([]string{"fetch https://b.example/page", "search https://a.example/doc", "search https://b.example/page"}))
	})
})

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

// The rules of the completion gate one by one (RUNTIME §20.2–§20.4, §31):
// each spec isolates one rule so that breaking it changes the verdict.
var _ = Describe("the completion gate, rule by rule", func() {
	req := run.Requirements{RequireInspection: true}
	review := func(seq int64, fp string) *checkpoint.DiffReview {
		return &checkpoint.DiffReview{DiffHash: "d", Sequence: seq, WorkspaceFingerprint: fp}
	}
	// written is a snapshot with one validated write at sequence 2 whose
	// final fingerprint is fp; it passes the gate as it is.
	written := func() run.Snapshot {
		return run.Snapshot{FinalReport: "ok", InspectedWorkspace: true, FinalWorkspaceFingerprint: sp("fp"),
			Writes:          []checkpoint.Edit{write("src/a.ts", 2, "fp")},
			Validations:     []checkpoint.ValidationRecord{validation("unit", "passed", 3, "fp")},
			FinalDiffReview: review(4, "fp")}
	}
	It("passes the baseline snapshot these specs vary", func() {
		Expect(run.Evaluate(req, written()).OK).To(BeTrue())
	})

	Describe("the diff review", func() {
		It("does not count a review at the same sequence as the last write", func() {
			snap := written()
			snap.Validations = nil
			snap.Writes[0].Sequence = 4
			snap.Writes[0].Path = "README.md"
			Expect(codes(run.Evaluate(req, snap))).To(Equal([]string{"DIFF_NOT_REVIEWED"}))
			snap.FinalDiffReview.Sequence = 5
			Expect(run.Evaluate(req, snap).OK).To(BeTrue())
		})
		It("compares the review with the last write, not the last write listed", func() {
			snap := written()
			snap.Writes = []checkpoint.Edit{write("README.md", 6, "fp"), write("src/a.ts", 2, "fp")}
			snap.FinalDiffReview = review(5, "fp")
			snap.Validations = append(snap.Validations, validation("late", "passed", 7, "fp"))
			Expect(codes(run.Evaluate(req, snap))).To(Equal([]string{"DIFF_NOT_REVIEWED"}))
		})
		It("does not count a review of another fingerprint than the final one", func() {
			snap := written()
			snap.FinalDiffReview = review(4, "older")
			// A later validation of the final fingerprint keeps the workspace
			// from counting as drifted, so only the review is at fault.
			snap.Validations = append(snap.Validations, validation("late", "passed", 5, "fp"))
			Expect(codes(run.Evaluate(req, snap))).To(Equal([]string{"DIFF_NOT_REVIEWED"}))
		})
		It("does not count a review without a diff hash", func() {
			snap := written()
			snap.FinalDiffReview.DiffHash = "  "
			Expect(codes(run.Evaluate(req, snap))).To(Equal([]string{"DIFF_NOT_REVIEWED"}))
		})
		It("needs no review without writes", func() {
			snap := written()
			snap.Writes, snap.FinalDiffReview = nil, nil
			Expect(run.Evaluate(req, snap).OK).To(BeTrue())
		})
	})

	Describe("validation freshness", func() {
		It("keeps a workspace validation through a later documentation write", func() {
			snap := written()
			snap.Writes = append(snap.Writes, write("docs/notes.md", 4, "fp"))
			snap.FinalDiffReview = review(5, "fp")
			Expect(run.Evaluate(req, snap).OK).To(BeTrue())
		})
		It("makes a workspace validation stale on a later code write", func() {
			snap := written()
			snap.Writes = append(snap.Writes, write("src/b.ts", 4, "fp"))
			snap.FinalDiffReview = review(5, "fp")
			v := run.Evaluate(req, snap)
			Expect(codes(v)).To(Equal([]string{"WORKSPACE_EVIDENCE_STALE", "WRITE_NOT_VALIDATED", "WRITE_NOT_VALIDATED"}))
			Expect(v.Issues[0].Detail).To(Equal("Stale validation ids: unit."))
		})
		It("keeps a validation through a write at its own sequence", func() {
			snap := written()
			snap.Writes = append(snap.Writes, write("src/b.ts", 3, "fp"))
			v := run.Evaluate(req, snap)
			Expect(codes(v)).To(Equal([]string{"WRITE_NOT_VALIDATED"}), "the validation is current but does not validate a write of its own sequence")
			Expect(v.Issues[0].Detail).To(Equal("src/b.ts has no later successful validation evidence."))
		})
		It("treats a missing final fingerprint as drift", func() {
			snap := run.Snapshot{FinalReport: "ok", InspectedWorkspace: true,
				Validations: []checkpoint.ValidationRecord{validation("unit", "passed", 1, "fp")}}
			v := run.Evaluate(run.Requirements{RequireValidation: true}, snap)
			Expect(codes(v)).To(Equal([]string{"WORKSPACE_EVIDENCE_STALE", "VALIDATION_MISSING"}))
			snap.FinalWorkspaceFingerprint = sp("fp")
			Expect(run.Evaluate(run.Requirements{RequireValidation: true}, snap).OK).To(BeTrue())
		})
		It("judges drift by the latest evidence, the later of equal sequences winning", func() {
			snap := written()
			snap.FinalDiffReview = nil
			snap.Writes = nil
			snap.Validations = []checkpoint.ValidationRecord{validation("a", "passed", 3, "old"), validation("b", "passed", 3, "fp")}
			Expect(run.Evaluate(req, snap).OK).To(BeTrue())
			snap.Validations = []checkpoint.ValidationRecord{validation("b", "passed", 3, "fp"), validation("a", "passed", 3, "old")}
			Expect(codes(run.Evaluate(req, snap))).To(Equal([]string{"WORKSPACE_EVIDENCE_STALE"}))
		})
		It("keeps the latest record per validation id, whatever the array order", func() {
			snap := written()
			snap.Validations = []checkpoint.ValidationRecord{validation("unit", "passed", 3, "fp"), validation("unit", "failed", 1, "fp")}
			Expect(run.Evaluate(req, snap).OK).To(BeTrue())
		})
		It("lists failed validations and still accepts another passing one", func() {
			snap := written()
			snap.Validations = append(snap.Validations, validation("lint", "failed", 3, "fp"))
			v := run.Evaluate(run.Requirements{RequireValidation: true}, snap)
			Expect(v.Issues).To(Equal([]run.Issue{{Code: "VALIDATION_FAILED", Detail: "Failed validation ids: lint."}}))
		})
		It("covers a path with a path-scoped validation of its directory or of the workspace root", func() {
			for _, scope := range []string{"src", "./src/", `src\`, ".", "src/a.ts"} {
				snap := written()
				snap.Validations = []checkpoint.ValidationRecord{validation("unit", "passed", 3, "fp", scope)}
				Expect(run.Evaluate(req, snap).OK).To(BeTrue(), "scope %q", scope)
			}
			for _, scope := range []string{"sr", "src/a", "lib"} {
				snap := written()
				snap.Validations = []checkpoint.ValidationRecord{validation("unit", "passed", 3, "fp", scope)}
				Expect(codes(run.Evaluate(req, snap))).To(Equal([]string{"WRITE_NOT_VALIDATED"}), "scope %q", scope)
			}
		})
	})

	Describe("write evidence", func() {
		It("names a blank path <blank> and rejects a write without a fingerprint", func() {
			snap := written()
			blank, nofp := write(" ", 2, "fp"), write("src/b.ts", 2, " ")
			snap.Writes = []checkpoint.Edit{blank, nofp}
			v := run.Evaluate(req, snap)
			Expect(v.Issues).To(Equal([]run.Issue{
				{Code: "WRITE_EVIDENCE_INVALID", Detail: "<blank> does not contain valid mutation evidence."},
				{Code: "WRITE_EVIDENCE_INVALID", Detail: "src/b.ts does not contain valid mutation evidence."}}))
		})
		It("needs no validation for a documentation write", func() {
			snap := written()
			snap.Writes, snap.Validations = []checkpoint.Edit{write("CHANGELOG.md", 2, "fp")}, nil
			Expect(run.Evaluate(req, snap).OK).To(BeTrue())
		})
		It("needs no validation for a path removed under another spelling", func() {
			gone := write("./src/a.ts", 3, "fp")
			gone.AfterHash = nil
			snap := written()
			snap.Writes, snap.Validations = []checkpoint.Edit{write(`src\a.ts`, 2, "fp"), gone}, nil
			Expect(run.Evaluate(req, snap).OK).To(BeTrue())
		})
	})

	Describe("research", func() {
		fetched := func(url string) run.GateSource {
			return run.GateSource{Kind: "fetch", ToolCallID: "f-" + url, ContentHash: sp("h"), URL: url}
		}
		It("raises no citation issue when every cited URL was fetched", func() {
			r := run.Requirements{Research: &run.ResearchRequirements{MinFetchCalls: 1, RequireCitations: true}}
			snap := run.Snapshot{FinalReport: "See https://nodejs.org/api/ (also https://Nodejs.org:443/api/#top).", ResearchSources: []run.GateSource{fetched("https://nodejs.org/api/")}}
			Expect(run.Evaluate(r, snap).Issues).To(BeEmpty())
		})
		It("counts distinct calls and only fetches with content", func() {
			r := run.Requirements{Research: &run.ResearchRequirements{MinSearchCalls: 2, MinFetchCalls: 2}}
			src := []run.GateSource{{Kind: "search", ToolCallID: "s"}, {Kind: "search", ToolCallID: "s"},
				fetched("https://a.example/"), {Kind: "fetch", ToolCallID: "g", URL: "https://b.example/"}, {Kind: "fetch", ToolCallID: "h", ContentHash: sp(" "), URL: "https://c.example/"}}
			v := run.Evaluate(r, run.Snapshot{FinalReport: "x", ResearchSources: src})
			Expect(v.Issues).To(Equal([]run.Issue{{Code: "RESEARCH_EVIDENCE_MISSING", Detail: "Missing research evidence: search calls 1/2, fetch calls 1/2."}}))
			src = append(src, run.GateSource{Kind: "search", ToolCallID: "t"}, fetched("https://d.example/"))
			Expect(run.Evaluate(r, run.Snapshot{FinalReport: "x", ResearchSources: src}).OK).To(BeTrue())
		})
		It("covers a required domain by the domain itself or a subdomain, not a look-alike", func() {
			r := run.Requirements{Research: &run.ResearchRequirements{RequiredDomains: []string{"nodejs.org"}}}
			for url, ok := range map[string]bool{"https://nodejs.org/x": true, "https://API.nodejs.org/x": true, "https://notnodejs.org/x": false, "https://nodejs.org.evil/x": false} {
				v := run.Evaluate(r, run.Snapshot{FinalReport: "x", ResearchSources: []run.GateSource{fetched(url)}})
				Expect(v.OK).To(Equal(ok), url)
			}
		})
		It("shows at most 8 unsupported citations and counts them all", func() {
			r := run.Requirements{Research: &run.ResearchRequirements{RequireCitations: true}}
			var urls []string
			for i := range 9 {
				urls = append(urls, fmt.Sprintf("https://x.example/%d", i))
			}
			snap := run.Snapshot{FinalReport: "https://nodejs.org/ " + strings.Join(urls, " "), ResearchSources: []run.GateSource{fetched("https://nodejs.org/")}}
			v := run.Evaluate(r, snap)
			Expect(v.Issues).To(Equal([]run.Issue{{Code: "RESEARCH_CITATION_UNSUPPORTED", Detail: "The final report cites 9 URL(s) without successful fetch evidence: " +
				strings.Join(urls[:8], ", ") + ". Cite only URLs returned by successful fetch calls."}}))
		})
		It("raises only the missing citation when nothing was fetched", func() {
			r := run.Requirements{Research: &run.ResearchRequirements{RequireCitations: true}}
			v := run.Evaluate(r, run.Snapshot{FinalReport: "https://x.example/"})
			Expect(codes(v)).To(Equal([]string{"RESEARCH_CITATION_MISSING"}))
		})
	})

	DescribeTable("CanonicalResearchURL (RUNTIME §31)",
		func(raw, want string, ok bool) {
			got, gotOK := run.CanonicalResearchURL(raw)
			Expect(gotOK).To(Equal(ok))
			Expect(got).To(Equal(want))
		},
		Entry("drops the fragment and lowercases the host", "https://Example.COM/a#frag", "https://example.com/a", true),
		Entry("adds the slash of an empty path", "https://example.com", "https://example.com/", true),
		Entry("adds the slash before a query", "https://example.com?q=1", "https://example.com/?q=1", true),
		Entry("removes the default http port", "http://example.com:80/x", "http://example.com/x", true),
		Entry("removes the default https port", "https://example.com:443", "https://example.com/", true),
		Entry("keeps the https port on http", "http://example.com:443/", "http://example.com:443/", true),
		Entry("keeps the http port on https", "https://example.com:80/", "https://example.com:80/", true),
		Entry("keeps another port", "https://example.com:8443/p?q=1", "https://example.com:8443/p?q=1", true),
		Entry("lowercases the scheme", "HTTP://example.com/", "http://example.com/", true),
		Entry("rejects another scheme", "ftp://example.com/", "", false),
		Entry("rejects a user name", "https://user@example.com/", "", false),
		Entry("rejects a user name and password", "https://user:pw@example.com/", "", false),
		Entry("rejects an empty host", "https:///path", "", false),
		Entry("rejects a relative reference", "example.com/path", "", false),
		Entry("rejects what does not parse", "http://[::1/", "", false),
	)
})

var _ = Describe("the task mode's validation default (CONTRACTS §3.1, RUNTIME §20.3)", func() {
	const missing = "VALIDATION_MISSING: A successful validation result is required."

	// inspectThenReport runs mode with an inspection and a final report, and
	// with a validation first when validate is true.
	inspectThenReport := func(mode string, requireValidation *bool, validate bool) (run.Result, []string) {
		rounds := []model.Round{calls(call("workspace_list", "l"))}
		if validate {
			rounds = append(rounds, calls(call("project_validate", "v")))
		}
		e := scripted(append(rounds, text("Done."), text("Done again."))...)
		e.verifier = newVerifier()
		req := baseRequest("run-mode-" + mode)
		req.Mode = mode
		req.Budget.MaxCompletionRejections = run.N(1)
		if requireValidation != nil {
			req.Completion = &prompt.Completion{RequireValidation: requireValidation}
		}
		r := e.start(req)
		var issues []string
		for _, ev := range e.eventsOf(run.EventCompletionRejected) {
			issues = append(issues, ev.Issues...)
		}
		return r, issues
	}

	It("requires a successful validation in validate_only when the request leaves requireValidation unset", func() {
		r, issues := inspectThenReport(port.ModeValidateOnly, nil, false)
		Expect(r.ErrorCode).To(Equal(run.CodeNoProgress))
		Expect(issues).To(Equal([]string{missing}))
	})

	It("completes a validate_only run that validated", func() {
		r, issues := inspectThenReport(port.ModeValidateOnly, nil, true)
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
		Expect(issues).To(BeEmpty())
	})

	It("lets an explicit requireValidation false win over the validate_only default", func() {
		no := false
		r, issues := inspectThenReport(port.ModeValidateOnly, &no, false)
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
		Expect(issues).To(BeEmpty())
	})

	DescribeTable("defaults requireValidation to false in the other modes",
		func(mode string) {
			r, issues := inspectThenReport(mode, nil, false)
			Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
			Expect(issues).To(BeEmpty())
		},
		Entry(nil, port.ModeAuto), Entry(nil, port.ModeReviewOnly), Entry(nil, port.ModeScaffold), Entry(nil, port.ModeRefactor),
	)
})
