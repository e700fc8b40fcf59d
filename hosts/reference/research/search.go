package research

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A Hit is one search result.
type Hit struct {
	// Title is the provider's title, redacted and cut to MaxTitleBytes;
	// the URL's host name when the provider gave none.
	Title string
	// URL is the hit's public URL, WHATWG-normalized.
	URL string
	// Snippet is the provider's snippet, redacted and cut to
	// MaxSnippetBytes; nil when the provider gave none.
	Snippet *string
}

// Hits are the results of one search.
type Hits struct {
	// Provider names the search provider.
	Provider string
	// Hits are at most the requested count of results.
	Hits []Hit
	// Truncated says results were dropped (beyond the count, not public,
	// or carrying a credential) or cut.
	Truncated bool
}

// searchAnswer is the search endpoint's answer.
type searchAnswer struct {
	Results []json.RawMessage `json:"results"`
}

type searchResult struct {
	Title   *string `json:"title"`
	URL     *string `json:"url"`
	Snippet *string `json:"snippet"`
}

// Search asks the configured search endpoint for at most limit results (0
// means DefaultSearchResults; at most MaxSearchResults) of query. The
// configured headers go with the request; a redirect is refused, so they
// cannot follow it elsewhere. Every failure is an *Error.
func (c *Client) Search(ctx context.Context, query string, limit int) (Hits, error) {
	if !c.CanSearch() {
		return Hits{}, fail("UNAVAILABLE", "No research search endpoint is configured on this host.")
	}
	if err := ctx.Err(); err != nil {
		return Hits{}, transportFailure(ctx, err, "The search endpoint")
	}
	query = strings.TrimSpace(query)
	if query == "" || len(query) > MaxQueryBytes || !utf8.ValidString(query) ||
		strings.ContainsFunc(query, func(r rune) bool { return (r < 0x20 && r != '\t' && r != '\n' && r != '\r') || r == 0x7f }) {
		return Hits{}, fail("INVALID_INPUT", "Search query must contain 1–2048 UTF-8 bytes of readable text.")
	}
	if hasSecret(query, c.secrets) {
		return Hits{}, fail("INVALID_INPUT", "Search query must not contain a research credential.")
	}
	if limit <= 0 {
		limit = DefaultSearchResults
	}
	limit = min(limit, MaxSearchResults)
	const what = "The search endpoint"
	u := *c.searchURL
	q := u.Query()
	q.Set("q", query)
	q.Set("n", strconv.Itoa(limit))
	c.credentialQuery(q.Set)
	u.RawQuery = q.Encode()
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return Hits{}, fail("PROVIDER_ERROR", "The search request could not be built.")
	}
	req.Header.Set("User-Agent", userAgent)
	req.Header.Set("Accept", "application/json")
	for _, name := range slices.Sorted(maps.Keys(c.cfg.Headers)) {
		req.Header.Set(name, c.cfg.Headers[name])
	}
	resp, err := c.findHTTP.Do(req)
	if err != nil {
		return Hits{}, transportFailure(ctx, err, what)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		e := fail("PERMISSION_DENIED", "The search endpoint answered a redirect; redirects are refused to protect the credentials.")
		e.Status = resp.StatusCode
		return Hits{}, e
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return Hits{}, statusFailure(resp.StatusCode, what)
	}
	body, cut, err := readBounded(resp.Body)
	if err != nil {
		return Hits{}, transportFailure(ctx, err, what)
	}
	if cut {
		return Hits{}, fail("LIMIT_EXCEEDED", "The search answer exceeds %d bytes.", MaxResponseBytes)
	}
	var ans searchAnswer
	if !utf8.Valid(body) || json.Unmarshal(body, &ans) != nil || ans.Results == nil {
		return Hits{}, fail("PROVIDER_ERROR", "The search answer is not UTF-8 JSON with a results array.")
	}
	out := Hits{Provider: c.provider(), Hits: []Hit{}, Truncated: len(ans.Results) > limit}
	for _, raw := range ans.Results {
		var r searchResult
		if json.Unmarshal(raw, &r) != nil || r.Title == nil || r.URL == nil {
			return Hits{}, fail("PROVIDER_ERROR", "The search answer has a result without a string title and url.")
		}
		src := parseSourceURL(*r.URL, false)
		if src == nil || hasSecret(*r.URL, c.secrets) {
			out.Truncated = true
			continue
		}
		if len(out.Hits) >= limit {
			continue
		}
		title := strings.TrimSpace(c.redact(*r.Title))
		if title == "" {
			title = strings.ToLower(src.Hostname())
		}
		h := Hit{URL: normalizeURL(src.String())}
		var short bool
		h.Title, short = boundBytes(title, MaxTitleBytes)
		out.Truncated = out.Truncated || short
		if r.Snippet != nil {
			s, short := boundBytes(c.redact(*r.Snippet), MaxSnippetBytes)
			h.Snippet = &s
			out.Truncated = out.Truncated || short
		}
		out.Hits = append(out.Hits, h)
	}
	return out, nil
}

func (c *Client) provider() string {
	if c.cfg.Provider != "" {
		return c.cfg.Provider
	}
	return strings.ToLower(c.searchURL.Hostname())
}
