package effects_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/core/port"
)

const (
	msgInspect        = "Inspection effects require non-empty workspace paths."
	msgWrite          = "Write effects require a path plus kinds and hashes proving a workspace mutation."
	msgValidationID   = "Validation effects require non-empty ids and details."
	msgValidationScp  = "Validation effects require an explicit workspace or paths scope."
	msgValidationPath = "Path-scoped validation requires explicit non-empty paths."
	msgValidationBlnk = "Validation paths must be non-empty."
	msgDiff           = "Diff review effects require a deterministic diff hash."
	msgNextAction     = "nextAction effects must be non-empty."
	msgStateVersion   = "stateVersion effects must be non-empty."
	msgPlan           = "Plan effects are malformed."
	msgResearchURL    = "Research source effects require a URL and bounded evidence."
	msgResearchParse  = "Research source effects require valid public HTTP(S) URLs."
	msgResearchBad    = "Research source effects are malformed or exceed durable evidence bounds."
	msgCriterionBlank = "Acceptance criterion effect ids must be non-empty."
)

func validation(id, detail, scope string, paths ...string) port.ValidationEntry {
	return port.ValidationEntry{ID: id, Detail: detail, Scope: scope, Paths: paths, Status: "passed"}
}

func fetched(url string) port.ResearchSource {
	return port.ResearchSource{Kind: "fetch", URL: url, Summary: "a summary", Title: "t", ContentHash: ptr("sha256:c")}
}

func plan(completed, pending []string, inProgress *string, decisions ...string) *port.Plan {
	return &port.Plan{Completed: completed, Pending: pending, InProgress: inProgress, Decisions: decisions}
}

var _ = Describe("CheckContent", func() {
	It("accepts complete, valid effects", func() {
		e := &port.Effects{
			Approval: "granted", ApprovalRequestID: "r",
			AcceptanceCriteriaSatisfied: []string{"c1"}, AcceptanceCriteriaWaived: []string{"c2"},
			DiffReview: &port.DiffReview{DiffHash: "sha256:d"}, InspectedPaths: []string{"src/a.ts", "."},
			NextAction: "run tests", Plan: plan([]string{"a"}, []string{}, ptr("b"), "d"),
			ResearchSources: []port.ResearchSource{fetched("https://example.com/a#x"),
				{Kind: "search", URL: "http://example.com", Summary: "s", ContentHash: nil}},
			StateVersion: "v1",
			Validations: []port.ValidationEntry{validation("project.validate:test:.", "ok", "workspace"),
				validation("project.validate:test:pkg", "ok", "paths", "pkg")},
			Writes: []port.Write{effects.CreateFile("src/a.ts", "h")},
		}
		Expect(effects.CheckContent(e, []string{"c1", "c2"})).To(Succeed())
		Expect(effects.CheckContent(nil, nil)).To(Succeed())
		Expect(effects.CheckContent(&port.Effects{}, nil)).To(Succeed())
	})

	DescribeTable("rejects",
		func(e *port.Effects, msg string) { failWith(effects.CheckContent(e, []string{"c1"}), msg) },
		Entry("a blank inspected path", &port.Effects{InspectedPaths: []string{"a", "\u2028"}}, msgInspect),
		Entry("a write without a path", &port.Effects{Writes: []port.Write{effects.CreateFile(" ", "h")}}, msgWrite),
		Entry("a write that proves nothing", &port.Effects{Writes: []port.Write{effects.ReplaceFile("a", "h", "h")}}, msgWrite),
		Entry("a validation without an id", &port.Effects{Validations: []port.ValidationEntry{validation(" ", "d", "workspace")}}, msgValidationID),
		Entry("a validation without detail", &port.Effects{Validations: []port.ValidationEntry{validation("v", "", "workspace")}}, msgValidationID),
		Entry("a validation without scope", &port.Effects{Validations: []port.ValidationEntry{validation("v", "d", "")}}, msgValidationScp),
		Entry("a validation with another scope", &port.Effects{Validations: []port.ValidationEntry{validation("v", "d", "repo")}}, msgValidationScp),
		Entry("a path scope without paths", &port.Effects{Validations: []port.ValidationEntry{validation("v", "d", "paths")}}, msgValidationPath),
		Entry("a path scope with a blank path", &port.Effects{Validations: []port.ValidationEntry{validation("v", "d", "paths", "a", " ")}}, msgValidationPath),
		Entry("a workspace scope with a blank path", &port.Effects{Validations: []port.ValidationEntry{validation("v", "d", "workspace", "")}}, msgValidationBlnk),
		Entry("a blank diff hash", &port.Effects{DiffReview: &port.DiffReview{DiffHash: "\t"}}, msgDiff),
		Entry("a blank next action", &port.Effects{NextAction: "  "}, msgNextAction),
		Entry("a blank state version", &port.Effects{StateVersion: "\u00a0"}, msgStateVersion),
		Entry("a plan without completed", &port.Effects{Plan: plan(nil, []string{}, nil)}, msgPlan),
		Entry("a plan without pending", &port.Effects{Plan: plan([]string{}, nil, nil)}, msgPlan),
		Entry("a plan with a blank step", &port.Effects{Plan: plan([]string{"a", ""}, []string{}, nil)}, msgPlan),
		Entry("a plan with a blank pending step", &port.Effects{Plan: plan([]string{}, []string{" "}, nil)}, msgPlan),
		Entry("a plan with a blank decision", &port.Effects{Plan: plan([]string{}, []string{}, nil, "")}, msgPlan),
		Entry("a plan with a blank step in progress", &port.Effects{Plan: plan([]string{}, []string{}, ptr(" "))}, msgPlan),
		Entry("a source without a URL", research(func(s *port.ResearchSource) { s.URL = " " }), msgResearchURL),
		Entry("a source with a relative URL", research(func(s *port.ResearchSource) { s.URL = "example.com/a" }), msgResearchParse),
		Entry("a source with a hostless http URL", research(func(s *port.ResearchSource) { s.URL = "https://" }), msgResearchParse),
		Entry("a source with a bad port", research(func(s *port.ResearchSource) { s.URL = "https://a.example:99999/" }), msgResearchParse),
		Entry("a source with another scheme", research(func(s *port.ResearchSource) { s.URL = "ftp://a.example/x" }), msgResearchBad),
		Entry("a source with a file URL", research(func(s *port.ResearchSource) { s.URL = "file:///etc/passwd" }), msgResearchBad),
		Entry("a source with a user name", research(func(s *port.ResearchSource) { s.URL = "https://user@a.example/" }), msgResearchBad),
		Entry("a source with a password", research(func(s *port.ResearchSource) { s.URL = "https://:pw@a.example/" }), msgResearchBad),
		Entry("a source of another kind", research(func(s *port.ResearchSource) { s.Kind = "crawl" }), msgResearchBad),
		Entry("a source with a blank summary", research(func(s *port.ResearchSource) { s.Summary = " " }), msgResearchBad),
		Entry("a source with a long summary", research(func(s *port.ResearchSource) { s.Summary = strings.Repeat("é", 1201) }), msgResearchBad),
		Entry("a source with a long title", research(func(s *port.ResearchSource) { s.Title = strings.Repeat("😀", 513) }), msgResearchBad),
		Entry("a source with a blank hash", research(func(s *port.ResearchSource) { s.ContentHash = ptr(" ") }), msgResearchBad),
		Entry("a fetch without a hash", research(func(s *port.ResearchSource) { s.ContentHash = nil }), msgResearchBad),
		Entry("a blank satisfied criterion", &port.Effects{AcceptanceCriteriaSatisfied: []string{""}}, msgCriterionBlank),
		Entry("a blank waived criterion", &port.Effects{AcceptanceCriteriaWaived: []string{"c1", " "}}, msgCriterionBlank),
		Entry("an unknown criterion", &port.Effects{AcceptanceCriteriaSatisfied: []string{"c1", "c9"}}, "Tool referenced unknown acceptance criterion c9."),
	)

	It("counts summary and title bounds in code points", func() {
		Expect(effects.CheckContent(research(func(s *port.ResearchSource) {
			s.Summary = strings.Repeat("😀", 1200)
			s.Title = strings.Repeat("é", 512)
		}), nil)).To(Succeed())
	})

	It("accepts a search source without a hash and URLs a WHATWG parser accepts", func() {
		for _, u := range []string{" https://a.example/x ", "https://a.example:443", "HTTPS://A.EXAMPLE/", "https:a.example/p", "http://[::1]:8080/", "https://a.ex\tample/"} {
			Expect(effects.CheckResearchSource(port.ResearchSource{Kind: "search", URL: u, Summary: "s"})).To(Succeed(), u)
		}
	})

	It("checks blank criterion IDs before unknown ones", func() {
		failWith(effects.CheckContent(&port.Effects{AcceptanceCriteriaSatisfied: []string{"c9"}, AcceptanceCriteriaWaived: []string{""}}, nil), msgCriterionBlank)
	})

	It("checks fields in the original order", func() {
		e := &port.Effects{InspectedPaths: []string{""}, StateVersion: " ", Plan: plan(nil, nil, nil)}
		failWith(effects.CheckContent(e, nil), msgInspect)
		e.InspectedPaths = nil
		failWith(effects.CheckContent(e, nil), msgStateVersion)
	})
})

func research(edit func(*port.ResearchSource)) *port.Effects {
	s := fetched("https://example.com/page")
	edit(&s)
	return &port.Effects{ResearchSources: []port.ResearchSource{s}}
}
