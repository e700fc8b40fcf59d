package variants

import (
	"regexp"
	"slices"
	"strings"

	"github.com/galaxy-stack/conform/hosts/reference"
	"github.com/galaxy-stack/conform/hosts/reference/workspace"
)

// The host's choices the variants take, in the words of the contract.
const (
	cWording   = "Free text is the host's own: a tool result's summary is never evidence, and warnings and messages are prose for the model (CONTRACTS.md, \"Host's choices\")."
	cOrder     = "JSON member order is the host's own: an object is an unordered set of members (RFC 8259 §4), and the tool pages list members, not their order."
	cDepth     = "Project detection's depth limit is the host's: the seed asks only to \"Bound traversal\", and scan.maxDepth declares the bound (project.detect)."
	cStreams   = "How a stream is cut and how the complete output is kept are the host's: the seed asks to \"Bound stdout and stderr independently; preserve complete output only through an artifact/spill port\", naming neither a head-only cut nor one file per stream."
	cExtension = "Offering an extension tool is the host's: project.format is offered only by a host that advertises project_format_v1, and a host without it keeps the core tools unchanged (seed \"Bounded project formatting lifecycle\")."
	cExclude   = "Traversal exclusions are the host's: the seed asks project detection to \"disclose host traversal exclusions\", not to use a given set (project.detect)."
	cPrompt    = "A host's own trusted instructions and workspace-state summary are its choice: the seed asks only that trusted instructions carry provenance and be resolved before the run, and that repository text stay untrusted (\"Prompt input\")."
)

// registry builds the variants; each takes exactly one choice.
func registry() []Variant {
	return []Variant{
		{Name: "reworded", Choice: cWording,
			Description: "words every summary, message and warning its own way (a prefix, the words in reverse order), except the exact strings CONTRACTS.md pins",
			Rewrite:     &Rewrite{Text: reword}},
		{Name: "reversed-members", Choice: cOrder,
			Description: "writes the members of every object of its tool results in reverse order",
			Rewrite:     &Rewrite{Reverse: true}},
		{Name: "head-tail-truncation", Choice: cStreams,
			Description: "keeps a head and a tail of a truncated stream around its own marker, instead of a head only",
			Rewrite:     &Rewrite{Command: headTail}},
		{Name: "one-spill-file", Choice: cStreams,
			Description: "keeps both complete streams of a truncated command in one framed spill file, instead of one file per stream",
			Rewrite:     &Rewrite{Command: oneSpill}},
		{Name: "shallow-scan", Choice: cDepth,
			Description: "limits project detection to depth 12 (the reference host: 20) and declares it as scan.maxDepth",
			Options:     reference.Options{Choices: reference.Choices{Workspace: workspace.Choices{DetectMaxDepth: 12}}}},
		{Name: "deep-scan", Choice: cDepth,
			Description: "limits project detection to depth 40 (the reference host: 20) and declares it as scan.maxDepth",
			Options:     reference.Options{Choices: reference.Choices{Workspace: workspace.Choices{DetectMaxDepth: 40}}}},
		{Name: "more-exclusions", Choice: cExclude,
			Description: "also excludes build, target, vendor and .venv from traversal and project detection, and discloses them",
			Options:     reference.Options{Choices: reference.Choices{Workspace: workspace.Choices{ExtraExclusions: []string{".venv", "build", "target", "vendor"}}}}},
		preconditionFirst(),
		{Name: "host-instructions", Choice: cPrompt,
			Description: "supplies, in its prompt input, a trusted instruction from its own settings and its own dirty-state summary",
			Options:     reference.Options{Choices: reference.Choices{HostInstructions: true}}},
		{Name: "no-project-format", Choice: cExtension,
			Description: "advertises no extension flag, so it offers no project.format",
			Options:     reference.Options{Choices: reference.Choices{NoExtensions: true}}},
	}
}

// pinned are the texts CONTRACTS.md ("Exact strings") pins: a host writes
// them word for word, so the reworded variant keeps a text holding one.
var pinned = []*regexp.Regexp{
	regexp.MustCompile(`Required command containment is unavailable`),
	regexp.MustCompile(`GALAXY OUTPUT TRUNCATED`),
	regexp.MustCompile(`Tool '[^']*' is not active in this turn\.`),
	regexp.MustCompile(`Checkpoint references unavailable tool '[^']*'\.`),
	regexp.MustCompile(`Checkpoint tool snapshot mismatch`),
}

// reword is the reworded variant's wording: the same facts (every word,
// name and number kept as it is) in another sentence, so that a check
// matching the reference host's phrases fails while one reading the facts
// passes. A text holding a pinned exact string is kept.
func reword(s string) string {
	for _, p := range pinned {
		if p.MatchString(s) {
			return s
		}
	}
	words := strings.Fields(s)
	if len(words) == 0 {
		return s
	}
	slices.Reverse(words)
	return "Host note: " + strings.Join(words, " ")
}
