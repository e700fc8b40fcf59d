package prompt

import "github.com/galaxy-stack/conform/core/canon"

// ReflectionHeader opens a bounded reflection (CONTRACTS §9.7).
const ReflectionHeader = "[GALAXY BOUNDED REFLECTION trust=trusted_structure; content_trust=untrusted_data]"

// maxReflectionText bounds each reflection text, in UTF-16 code units.
const maxReflectionText = 600

// A ReflectionInput holds the five fields of a bounded reflection. When
// EvidenceData is nil, Evidence is the evidence text from source
// "runtime_observation"; otherwise EvidenceData is used as given.
type ReflectionInput struct {
	Avoid        string
	Evidence     string
	EvidenceData *UntrustedData
	Failure      string
	NextStrategy string
	RootCause    string
}

// BuildReflection formats a bounded reflection (CONTRACTS §9.7,
// buildAiCoderReflection): [ReflectionHeader], a newline, and the JSON of
// {avoid, evidence, failure, nextStrategy, rootCause}. Each text is trimmed
// and cut to 600 UTF-16 code units (never inside a surrogate pair), and the
// evidence is labelled "untrusted_data".
func BuildReflection(in ReflectionInput) string {
	evidence := UntrustedData{Content: in.Evidence, Source: "runtime_observation"}
	if in.EvidenceData != nil {
		evidence = *in.EvidenceData
	}
	evidence.Content = bounded(evidence.Content)
	return ReflectionHeader + "\n" + mustJSON(map[string]any{
		"avoid":        bounded(in.Avoid),
		"evidence":     untrustedItem(evidence),
		"failure":      bounded(in.Failure),
		"nextStrategy": bounded(in.NextStrategy),
		"rootCause":    bounded(in.RootCause),
	})
}

func bounded(s string) string {
	return canon.CutUTF16(canon.TrimJSSpace(s), maxReflectionText)
}
