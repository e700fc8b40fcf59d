package run_test

import (
	"fmt"
	"strings"

	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/run"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

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
