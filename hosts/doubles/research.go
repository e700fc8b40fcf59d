package doubles

import (
	"fmt"
	"strings"

	"github.com/galaxy-stack/conform/core/canon"
)

// Default page sizes of the doubles (LAB_AND_HOSTS §21).
const (
	defaultFetchBytes    = 8192
	defaultArtifactBytes = 4096
	defaultSessionChars  = 4096
	defaultSearchResults = 5
	maxSearchResults     = 3
	defaultPreviewPort   = 4173
	defaultArtifactLimit = 50
)

// fetch is research.fetch: a fixed 32-line document about the URL.
func fetch(args map[string]any) outcome {
	raw, bad := stringArg(args, "url")
	if bad != nil {
		return *bad
	}
	if raw == "" {
		return invalid("URL must not be empty.")
	}
	href, hostname, ok := publicURL(raw)
	if !ok {
		return invalid("URL must be a valid public HTTP(S) URL.")
	}
	lines := make([]string, 32)
	for i := range lines {
		lines[i] = fmt.Sprintf("Contract document %02d for %s", i+1, href)
	}
	full := strings.Join(lines, "\n")
	hash := canon.HashText(full)
	p, bad := bytePage(full, 0, count(numberOr(args, "maxBytes", defaultFetchBytes)))
	if bad != nil {
		return *bad
	}
	return outcome{
		output: obj(
			"url", href,
			"title", "Deterministic document for "+hostname,
			"content", p.content,
			"mimeType", "text/plain; charset=utf-8",
			"contentHash", hash,
			"truncated", p.truncated,
			"provenance", provenance(href, "untrusted_external", hash),
		),
		summary: "Fetched deterministic contract content for " + hostname + ".",
		trust:   "external",
	}
}

// search is research.search: up to three fixed hits derived from the query.
func search(args map[string]any) outcome {
	query, bad := stringArg(args, "query")
	if bad != nil {
		return *bad
	}
	if query == "" {
		return invalid("Search query must not be empty.")
	}
	n := min(count(numberOr(args, "maxResults", defaultSearchResults)), maxSearchResults)
	queryHash := canon.HashText(query)
	prefix := strings.TrimPrefix(queryHash, "sha256:")[:16]
	results := make([]canon.Object, n)
	for i := range results {
		u := fmt.Sprintf("https://example.invalid/search/%s/%d", prefix, i+1)
		results[i] = obj(
			"title", fmt.Sprintf("Deterministic result %d for %s", i+1, query),
			"url", u,
			"snippet", fmt.Sprintf("Contract-only search result %d.", i+1),
			"provider", "galaxy-code-contract",
			"provenance", provenance(u, "untrusted_external", canon.HashText(fmt.Sprintf("%s\x00%d", query, i+1))),
		)
	}
	return outcome{
		output:  obj("results", results, "provenance", provenance("contract:research.search", "untrusted_external", queryHash)),
		summary: fmt.Sprintf("Returned %d deterministic search result(s).", n),
		trust:   "external",
	}
}
