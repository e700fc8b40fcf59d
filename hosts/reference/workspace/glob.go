package workspace

import (
	"context"
	"regexp"
	"slices"
	"strings"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
)

// A GlobRequest asks for the paths below Path (default ".") whose
// Path-relative form matches Pattern. Kind is "", "any", "file" or
// "directory". Limit and Cursor page the sorted matches.
type GlobRequest struct {
	Pattern string
	Path    string
	Kind    string
	Limit   int
	Cursor  string
}

// A GlobResult is one page of root-relative matching paths, sorted in
// UTF-16 order.
type GlobResult struct {
	Matches    []string   `json:"matches"`
	Pagination Pagination `json:"pagination"`
}

// globRegexp compiles a glob into an anchored, case-insensitive regular
// expression: "**/" is any prefix ending in "/", "**" any characters, "*"
// any run without "/", "?" one non-"/" character; everything else,
// braces and brackets included, is literal (DECISIONS 50).
func globRegexp(pattern string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("(?i)^")
	for i := 0; i < len(pattern); i++ {
		switch c := pattern[i]; {
		case c == '*' && i+1 < len(pattern) && pattern[i+1] == '*':
			i++
			if i+1 < len(pattern) && pattern[i+1] == '/' {
				i++
				b.WriteString("(?:.*/)?")
			} else {
				b.WriteString(".*")
			}
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		default:
			// Copy the whole UTF-8 sequence starting here literally.
			j := i + 1
			for j < len(pattern) && pattern[j]&0xC0 == 0x80 {
				j++
			}
			b.WriteString(regexp.QuoteMeta(pattern[i:j]))
			i = j - 1
		}
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

// checkQuery validates a search query or pattern length.
func checkQuery(q string) error {
	if n := canon.UTF16Len(q); n == 0 || n > MaxQueryUnits {
		return fail(hosterr.InvalidInput, "Search query length must be between 1 and %d.", MaxQueryUnits)
	}
	return nil
}

// Glob matches workspace paths against a glob (LAB_AND_HOSTS §10.4
// searchPaths in glob mode). The traversal is unbounded in depth and
// bounded by MaxTraversalEntries.
func (r *Root) Glob(ctx context.Context, req GlobRequest) (GlobResult, error) {
	if err := checkQuery(req.Pattern); err != nil {
		return GlobResult{}, err
	}
	switch req.Kind {
	case "", "any", KindFile, KindDirectory:
	default:
		return GlobResult{}, fail(hosterr.InvalidInput, "Glob kind must be file, directory or any.")
	}
	base, entries, err := r.traverse(ctx, defaultPath(req.Path), -1)
	if err != nil {
		return GlobResult{}, err
	}
	re := globRegexp(req.Pattern)
	matches := []string{}
	for _, e := range entries {
		if (req.Kind == KindFile || req.Kind == KindDirectory) && e.Kind != req.Kind {
			continue
		}
		if re.MatchString(relToBase(base, e.Path)) {
			matches = append(matches, e.Path)
		}
	}
	slices.SortFunc(matches, compareUTF16)
	if r.faults.IgnoreGlobLimit {
		req.Limit = MaxPageLimit
	}
	page, p, err := pageOf(matches, req.Cursor, req.Limit)
	if err != nil {
		return GlobResult{}, err
	}
	return GlobResult{Matches: page, Pagination: p}, nil
}

func defaultPath(p string) string {
	if p == "" {
		return "."
	}
	return p
}
