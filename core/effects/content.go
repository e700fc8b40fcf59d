package effects

import (
	"slices"
	"unicode/utf8"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/port"
)

// Bounds of durable research evidence, in Unicode code points.
const (
	MaxResearchSummary = 1200
	MaxResearchTitle   = 512
)

// CheckContent validates the content of the effects of a successful,
// non-pending result (CONTRACTS §7.7 step 4), in this order, each failure a
// TOOL_EXECUTION *Error:
//
//   - inspected paths non-blank: "Inspection effects require non-empty workspace paths.";
//   - each write has a non-blank path and passes CheckWrite: "Write effects
//     require a path plus kinds and hashes proving a workspace mutation.";
//   - each validation has a non-blank id and detail ("Validation effects
//     require non-empty ids and details."), scope "paths" or "workspace"
//     ("Validation effects require an explicit workspace or paths scope."),
//     non-empty non-blank paths when scoped to paths ("Path-scoped
//     validation requires explicit non-empty paths."), and no blank path
//     ("Validation paths must be non-empty.");
//   - diffReview.diffHash non-blank: "Diff review effects require a deterministic diff hash.";
//   - nextAction non-blank: "nextAction effects must be non-empty.";
//   - stateVersion non-blank: "stateVersion effects must be non-empty.";
//   - plan: completed and pending present, every entry of completed,
//     pending and decisions non-blank, inProgress null or non-blank: "Plan
//     effects are malformed.";
//   - research sources, see CheckResearchSource;
//   - criterion IDs non-blank ("Acceptance criterion effect ids must be
//     non-empty.") and among knownCriteria ("Tool referenced unknown
//     acceptance criterion <id>.").
//
// A nil e passes. Plan lists must be non-nil slices: a nil Completed or
// Pending is an absent array, as when the JSON field is missing or null.
func CheckContent(e *port.Effects, knownCriteria []string) error {
	if e == nil {
		return nil
	}
	for _, p := range e.InspectedPaths {
		if canon.IsBlank(p) {
			return toolExecution("Inspection effects require non-empty workspace paths.")
		}
	}
	for _, w := range e.Writes {
		if canon.IsBlank(w.Path) || !ValidWrite(w) {
			return toolExecution("Write effects require a path plus kinds and hashes proving a workspace mutation.")
		}
	}
	for _, v := range e.Validations {
		if err := checkValidation(v); err != nil {
			return err
		}
	}
	if e.DiffReview != nil && canon.IsBlank(e.DiffReview.DiffHash) {
		return toolExecution("Diff review effects require a deterministic diff hash.")
	}
	if e.NextAction != "" && canon.IsBlank(e.NextAction) {
		return toolExecution("nextAction effects must be non-empty.")
	}
	if e.StateVersion != "" && canon.IsBlank(e.StateVersion) {
		return toolExecution("stateVersion effects must be non-empty.")
	}
	if e.Plan != nil && !validPlan(e.Plan) {
		return toolExecution("Plan effects are malformed.")
	}
	for _, s := range e.ResearchSources {
		if err := CheckResearchSource(s); err != nil {
			return err
		}
	}
	criteria := slices.Concat(e.AcceptanceCriteriaSatisfied, e.AcceptanceCriteriaWaived)
	for _, id := range criteria {
		if canon.IsBlank(id) {
			return toolExecution("Acceptance criterion effect ids must be non-empty.")
		}
	}
	for _, id := range criteria {
		if !slices.Contains(knownCriteria, id) {
			return toolExecution("Tool referenced unknown acceptance criterion " + id + ".")
		}
	}
	return nil
}

func checkValidation(v port.ValidationEntry) error {
	if canon.IsBlank(v.ID) || canon.IsBlank(v.Detail) {
		return toolExecution("Validation effects require non-empty ids and details.")
	}
	if v.Scope != "paths" && v.Scope != "workspace" {
		return toolExecution("Validation effects require an explicit workspace or paths scope.")
	}
	if v.Scope == "paths" && (len(v.Paths) == 0 || slices.ContainsFunc(v.Paths, canon.IsBlank)) {
		return toolExecution("Path-scoped validation requires explicit non-empty paths.")
	}
	if slices.ContainsFunc(v.Paths, canon.IsBlank) {
		return toolExecution("Validation paths must be non-empty.")
	}
	return nil
}

func validPlan(p *port.Plan) bool {
	if p.Completed == nil || p.Pending == nil {
		return false
	}
	if slices.ContainsFunc(p.Completed, canon.IsBlank) || slices.ContainsFunc(p.Pending, canon.IsBlank) ||
		slices.ContainsFunc(p.Decisions, canon.IsBlank) {
		return false
	}
	return p.InProgress == nil || !canon.IsBlank(*p.InProgress)
}

// CheckResearchSource validates one research source, each failure a
// TOOL_EXECUTION *Error:
//
//   - a blank URL: "Research source effects require a URL and bounded evidence.";
//   - a URL that does not parse as an absolute URL: "Research source effects
//     require valid public HTTP(S) URLs.";
//   - otherwise "Research source effects are malformed or exceed durable
//     evidence bounds." unless: kind is "fetch" or "search"; the scheme is
//     http or https; the URL has no user name or password; the summary is
//     non-blank and at most MaxResearchSummary code points; the title is at
//     most MaxResearchTitle code points; contentHash is null or non-blank,
//     and non-blank for kind "fetch".
func CheckResearchSource(s port.ResearchSource) error {
	if canon.IsBlank(s.URL) {
		return toolExecution("Research source effects require a URL and bounded evidence.")
	}
	u, err := parseURL(s.URL)
	if err != nil {
		return toolExecution("Research source effects require valid public HTTP(S) URLs.")
	}
	ok := (s.Kind == "fetch" || s.Kind == "search") &&
		(u.Scheme == "http" || u.Scheme == "https") &&
		!hasUserInfo(u) &&
		!canon.IsBlank(s.Summary) && utf8.RuneCountInString(s.Summary) <= MaxResearchSummary &&
		utf8.RuneCountInString(s.Title) <= MaxResearchTitle &&
		(s.ContentHash == nil || !canon.IsBlank(*s.ContentHash)) &&
		(s.Kind != "fetch" || (s.ContentHash != nil && !canon.IsBlank(*s.ContentHash)))
	if !ok {
		return toolExecution("Research source effects are malformed or exceed durable evidence bounds.")
	}
	return nil
}
