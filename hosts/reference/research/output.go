package research

import (
	"crypto/sha256"
	"encoding/hex"
	"unicode/utf8"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/window"
)

// TrustExternal is the provenance trust of every research output.
const TrustExternal = "untrusted_external"

// Bounds of the durable researchSources summaries (the original
// executor's; CONTRACTS §7.7 allows up to 1200 code points).
const (
	FetchSummaryRunes  = 1000
	SearchSummaryRunes = 400
	// emptySummary stands for a source with no excerpt.
	emptySummary = "Source returned no additional excerpt; retain its URL and provenance only."
	// tokenReserve is the core estimator's highest calibration factor:
	// an output fits only if it fits at that factor.
	tokenReserve = window.CalibrationMax
)

// Provenance attributes model-visible research content (CONTRACTS §6.1).
type Provenance struct {
	Source      string `json:"source"`
	Trust       string `json:"trust"`
	RetrievedAt string `json:"retrievedAt"`
	ContentHash string `json:"contentHash,omitempty"`
}

// FetchOutput is the output of research.fetch, in the key order the
// original's contract double writes.
type FetchOutput struct {
	URL         string     `json:"url"`
	Title       string     `json:"title,omitempty"`
	Content     string     `json:"content"`
	MimeType    string     `json:"mimeType,omitempty"`
	ContentHash string     `json:"contentHash"`
	Truncated   bool       `json:"truncated"`
	Provenance  Provenance `json:"provenance"`
}

// SearchHit is one RESEARCH_HIT of research.search's output.
type SearchHit struct {
	Provider   string     `json:"provider,omitempty"`
	Title      string     `json:"title"`
	URL        string     `json:"url"`
	Snippet    *string    `json:"snippet,omitempty"`
	Provenance Provenance `json:"provenance"`
}

// SearchOutput is the output of research.search.
type SearchOutput struct {
	Results    []SearchHit `json:"results"`
	Truncated  bool        `json:"truncated"`
	Provenance Provenance  `json:"provenance"`
}

// Limits are a tool descriptor's output limits.
type Limits struct {
	MaxBytes  int
	MaxTokens int
}

// Fits reports whether the compact JSON of v is at most l.MaxBytes bytes
// and its JSON token estimate, at the estimator's highest calibration
// factor, at most l.MaxTokens. A zero limit is no limit.
func (l Limits) Fits(v any) bool {
	text, err := CompactJSON(v)
	if err != nil {
		return false
	}
	if l.MaxBytes > 0 && len(text) > l.MaxBytes {
		return false
	}
	var est window.Estimator
	return l.MaxTokens <= 0 || float64(est.TextAs(text, window.KindJSON))*tokenReserve <= float64(l.MaxTokens)
}

// ShapeFetch builds the output of a fetched page: the content hash is the
// SHA-256 of the content, the provenance names the page's URL as source.
// While the output does not fit l, the content is cut to three quarters of
// its code points, marked truncated and hashed again. Metadata that does
// not fit with empty content is a LIMIT_EXCEEDED *Error.
func ShapeFetch(p Page, retrievedAt string, l Limits) (FetchOutput, error) {
	o := FetchOutput{URL: p.URL, Title: p.Title, Content: p.Content, MimeType: p.MimeType, Truncated: p.Truncated}
	o.rehash(retrievedAt)
	for !l.Fits(o) && o.Content != "" {
		o.Content = firstRunes(o.Content, utf8.RuneCountInString(o.Content)*3/4)
		o.Truncated = true
		o.rehash(retrievedAt)
	}
	if !l.Fits(o) {
		return FetchOutput{}, fail("LIMIT_EXCEEDED", "Research source metadata exceeds the structured output budget.")
	}
	return o, nil
}

func (o *FetchOutput) rehash(retrievedAt string) {
	o.ContentHash = sha256Hex(o.Content)
	o.Provenance = Provenance{Source: o.URL, Trust: TrustExternal, RetrievedAt: retrievedAt, ContentHash: o.ContentHash}
}

// ShapeSearch builds the output of a search: each hit attributed to its own
// URL, the whole to "search:<provider>". While the output does not fit l it
// is marked truncated and, while any snippet is non-empty, every snippet is
// cut to three quarters of its code points, then hits are dropped from the
// end.
func ShapeSearch(h Hits, retrievedAt string, l Limits) SearchOutput {
	o := SearchOutput{Results: []SearchHit{}, Truncated: h.Truncated,
		Provenance: Provenance{Source: "search:" + h.Provider, Trust: TrustExternal, RetrievedAt: retrievedAt}}
	for _, hit := range h.Hits {
		o.Results = append(o.Results, SearchHit{Provider: h.Provider, Title: hit.Title, URL: hit.URL, Snippet: hit.Snippet,
			Provenance: Provenance{Source: hit.URL, Trust: TrustExternal, RetrievedAt: retrievedAt}})
	}
	for !l.Fits(o) && len(o.Results) > 0 {
		o.Truncated = true
		cut := false
		for i, r := range o.Results {
			if r.Snippet != nil && *r.Snippet != "" {
				s := firstRunes(*r.Snippet, utf8.RuneCountInString(*r.Snippet)*3/4)
				o.Results[i].Snippet = &s
				cut = true
			}
		}
		if !cut {
			o.Results = o.Results[:len(o.Results)-1]
		}
	}
	return o
}

// FetchSource is the researchSources effect of a fetch output: kind
// "fetch", the output's URL, truncation and content hash, and a summary of
// the content's first FetchSummaryRunes code points, white space
// collapsed.
func FetchSource(o FetchOutput) port.ResearchSource {
	h := o.ContentHash
	return port.ResearchSource{Kind: "fetch", URL: o.URL, Summary: durableSummary(o.Content, FetchSummaryRunes),
		Truncated: o.Truncated, ContentHash: &h}
}

// SearchSources are the researchSources effects of a search output, one
// per hit: kind "search", no content hash, the hit's title and a summary
// of its snippet (its title when it has none).
func SearchSources(o SearchOutput) []port.ResearchSource {
	out := make([]port.ResearchSource, 0, len(o.Results))
	for _, r := range o.Results {
		text := r.Title
		if r.Snippet != nil {
			text = *r.Snippet
		}
		out = append(out, port.ResearchSource{Kind: "search", URL: r.URL, Summary: durableSummary(text, SearchSummaryRunes),
			Title: firstRunes(r.Title, effects.MaxResearchTitle), Truncated: o.Truncated})
	}
	return out
}

// durableSummary collapses white space in s and keeps its first n code
// points, or says that the source had no excerpt.
func durableSummary(s string, n int) string {
	if out := firstRunes(collapseSpace(s), n); out != "" {
		return out
	}
	return emptySummary
}

// CompactJSON encodes v compactly without HTML escaping, as JavaScript's
// JSON.stringify does.
func CompactJSON(v any) (string, error) {
	b, err := canon.Stringify(v)
	return string(b), err
}

// normalizeURL is the WHATWG href of raw without its fragment, or raw when
// it does not parse.
func normalizeURL(raw string) string {
	if n, err := effects.NormalizeResearchURL(raw); err == nil {
		return n
	}
	return raw
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
