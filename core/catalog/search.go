package catalog

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/galaxy-stack/conform/core/canon"
)

// DefaultSearchLimit is the page size of a search without a limit, and
// MaxSearchLimit the largest page (CONTRACTS §8.4).
const (
	DefaultSearchLimit = 5
	MaxSearchLimit     = 20
)

// SearchRequest is the input of catalog.search (search_tools). Its JSON
// form is the tool's input, so a host can decode the model's arguments
// into it. Limit 0 means [DefaultSearchLimit].
type SearchRequest struct {
	Query    string `json:"query,omitempty"`
	Category string `json:"category,omitempty"`
	Limit    int    `json:"limit,omitempty"`
	Cursor   string `json:"cursor,omitempty"`
}

// SearchMatch is one tool found by a search.
type SearchMatch struct {
	ID        string `json:"id"`
	ModelName string `json:"modelName"`
	Title     string `json:"title"`
	Category  string `json:"category"`
	Active    bool   `json:"active"`
}

// SearchResult is the output of catalog.search; its JSON form satisfies the
// tool's output schema.
type SearchResult struct {
	Matches     []SearchMatch `json:"matches"`
	Activated   []string      `json:"activated"`
	NextCursor  string        `json:"nextCursor,omitempty"`
	CatalogHash string        `json:"catalogHash"`
	ActiveHash  string        `json:"activeHash"`
}

var offsetCursor = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^offset:([0-9]+)$`) })

// Search finds snapshot tools and activates the page it returns (CONTRACTS
// §8.4). The query is lower-cased and split on whitespace; a tool scores
// one point per term found in the lower-cased text "<id> <modelName>
// <title> <description> <category>". Candidates are all snapshot tools,
// active or not, restricted to Category when set (exact match); those
// scoring above zero are kept, or all of them when there are no terms.
// They are ordered by score descending, then canonical ID. The page starts
// at N for a cursor "offset:N" (else 0) and holds Limit tools clamped to
// 1..20. Every tool on the page is activated; Activated lists the IDs for
// which activation succeeded, including tools that were already active
// (DECISIONS 34). NextCursor is "offset:<end of page>" when more remain.
// ActiveHash is computed after activation.
//
// Activated tools become callable on the next model turn, not later in the
// batch that searched; the catalog.search description tells the model so,
// and that two empty searches are a final answer.
func (r *Registry) Search(req SearchRequest) SearchResult {
	r.mu.Lock()
	defer r.mu.Unlock()
	terms := searchTerms(req.Query)
	type scored struct {
		d     Descriptor
		score int
	}
	var ranked []scored
	for _, d := range r.snapshot.Descriptors {
		if req.Category != "" && d.Category != req.Category {
			continue
		}
		haystack := strings.ToLower(strings.Join([]string{d.ID, d.ModelName, d.Title, d.Description, d.Category}, " "))
		score := 0
		for _, t := range terms {
			if strings.Contains(haystack, t) {
				score++
			}
		}
		if len(terms) == 0 || score > 0 {
			ranked = append(ranked, scored{d, score})
		}
	}
	slices.SortStableFunc(ranked, func(a, b scored) int {
		if a.score != b.score {
			return b.score - a.score
		}
		return canon.CompareText(a.d.ID, b.d.ID)
	})
	offset := cursorOffset(req.Cursor, len(ranked))
	size := req.Limit
	if size == 0 {
		size = DefaultSearchLimit
	}
	size = min(max(size, 1), MaxSearchLimit)
	end := min(offset+size, len(ranked))
	page := ranked[offset:end]

	result := SearchResult{Matches: []SearchMatch{}, Activated: []string{}}
	for _, s := range page {
		if r.activateLocked(s.d.ID) {
			result.Activated = append(result.Activated, s.d.ID)
		}
	}
	for _, s := range page {
		result.Matches = append(result.Matches, SearchMatch{
			ID: s.d.ID, ModelName: s.d.ModelName, Title: s.d.Title, Category: s.d.Category, Active: r.active[s.d.ID],
		})
	}
	if end < len(ranked) {
		result.NextCursor = "offset:" + strconv.Itoa(end)
	}
	result.CatalogHash = r.snapshot.CatalogHash
	result.ActiveHash = r.activeHashLocked()
	return result
}

// searchTerms lower-cases q and splits it on JavaScript whitespace.
func searchTerms(q string) []string {
	return strings.FieldsFunc(strings.ToLower(q), canon.IsJSSpace)
}

// cursorOffset parses "offset:N"; anything else is 0. An offset beyond the
// candidates (even one too large for an int) yields an empty page.
func cursorOffset(cursor string, n int) int {
	m := offsetCursor().FindStringSubmatch(cursor)
	if m == nil {
		return 0
	}
	off, err := strconv.Atoi(m[1])
	if err != nil || off > n {
		return n
	}
	return off
}
