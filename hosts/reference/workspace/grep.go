package workspace

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
)

// A GrepRequest asks for lines matching Query in the regular files below
// Path (default "."). Query is literal unless Regex (Go RE2 syntax,
// DECISIONS 49). CaseSensitive nil means true. Glob, when set, filters
// files by their Path-relative form with the Glob rules. Limit and Cursor
// page the matches.
type GrepRequest struct {
	Query         string
	Regex         bool
	CaseSensitive *bool
	Glob          string
	Path          string
	Limit         int
	Cursor        string
}

// A TextMatch is one matching line. Line and Column are 1-based; Column
// counts UTF-16 code units; Preview is at most PreviewUnits UTF-16 units of
// the line; ContentSha256 is the bare hex hash of the whole file's bytes.
type TextMatch struct {
	Path          string `json:"path"`
	Line          int    `json:"line"`
	Column        int    `json:"column"`
	Preview       string `json:"preview"`
	ContentSha256 string `json:"contentSha256"`
}

// A GrepResult is one page of matches in traversal order.
type GrepResult struct {
	Matches    []TextMatch `json:"matches"`
	Pagination Pagination  `json:"pagination"`
}

// Grep searches file contents (LAB_AND_HOSTS §10.4 searchText). Files are
// streamed in SearchChunkBytes chunks with a running hash, so files of any
// size are searched in bounded memory; a file that is not valid UTF-8 is
// skipped; a line longer than MaxSearchLineUnits fails the whole search
// with LIMIT_EXCEEDED.
func (r *Root) Grep(ctx context.Context, req GrepRequest) (GrepResult, error) {
	if err := checkQuery(req.Query); err != nil {
		return GrepResult{}, err
	}
	if canon.UTF16Len(req.Glob) > MaxQueryUnits {
		return GrepResult{}, fail(hosterr.InvalidInput, "Search glob must not exceed %d characters.", MaxQueryUnits)
	}
	match, err := lineMatcher(req.Query, req.Regex, req.CaseSensitive == nil || *req.CaseSensitive)
	if err != nil {
		return GrepResult{}, err
	}
	offset, err := decodeOffset(req.Cursor)
	if err != nil {
		return GrepResult{}, err
	}
	limit, err := boundLimit(req.Limit)
	if err != nil {
		return GrepResult{}, err
	}
	if r.faults.IgnoreSearchLimit {
		limit = MaxPageLimit
	}
	base, entries, err := r.traverse(ctx, defaultPath(req.Path), -1)
	if err != nil {
		return GrepResult{}, err
	}
	if r.faults.SearchFollowsSymlinks {
		entries = append(entries, r.followedLinks(entries)...)
	}
	var filter *regexp.Regexp
	if req.Glob != "" {
		filter = globRegexp(req.Glob)
	}
	skipped := 0
	matches := []TextMatch{}
	hasMore := false
	for _, e := range entries {
		if err := checkContext(ctx); err != nil {
			return GrepResult{}, err
		}
		if e.Kind != KindFile || (filter != nil && !filter.MatchString(relToBase(base, e.Path))) {
			continue
		}
		real, _, err := r.resolveExisting(e.Path)
		if err != nil && r.faults.SearchFollowsSymlinks {
			real, err = filepath.EvalSymlinks(r.absOf(e.Path))
		}
		if err != nil {
			return GrepResult{}, err
		}
		// Keep only the matches this page can use, so memory stays bounded
		// however many lines of one file match.
		skipLeft := offset - skipped
		keepUpTo := skipLeft + (limit - len(matches)) + 1
		var local []TextMatch
		count := 0
		hash, valid, err := scanLines(ctx, real, e.Path, func(line []byte, n int) {
			idx := match(line)
			if idx < 0 {
				return
			}
			if count >= skipLeft && count < keepUpTo {
				text := string(line)
				local = append(local, TextMatch{
					Path:    e.Path,
					Line:    n,
					Column:  canon.UTF16Len(text[:idx]) + 1,
					Preview: canon.CutUTF16(text, PreviewUnits),
				})
			}
			count++
		})
		if err != nil {
			return GrepResult{}, err
		}
		if !valid {
			continue
		}
		skipped += min(count, skipLeft)
		for _, m := range local {
			if len(matches) == limit {
				hasMore = true
				break
			}
			m.ContentSha256 = hash
			if r.faults.GrepHashOfLine {
				m.ContentSha256 = SHA256Hex([]byte(m.Preview))
			}
			matches = append(matches, m)
		}
		if hasMore {
			break
		}
	}
	if !hasMore && skipped < offset {
		return GrepResult{}, fail(hosterr.InvalidInput, "Pagination cursor is outside the result set.")
	}
	res := GrepResult{Matches: matches, Pagination: Pagination{HasMore: hasMore}}
	if hasMore {
		res.Pagination.NextCursor = offsetCursorPrefix + strconv.Itoa(offset+len(matches))
	}
	return res, nil
}

// lineMatcher returns a function giving the byte index of the first match
// in a line, or -1. The index is into the line as matched: for literal
// case-insensitive search that is the lower-cased line, as in the original.
func lineMatcher(query string, regex, caseSensitive bool) (func([]byte) int, error) {
	if regex {
		expr := query
		if !caseSensitive {
			expr = "(?i)" + expr
		}
		re, err := regexp.Compile(expr)
		if err != nil {
			return nil, fail(hosterr.InvalidInput, "Search query is not a valid regular expression.")
		}
		return func(line []byte) int {
			loc := re.FindIndex(line)
			if loc == nil {
				return -1
			}
			return loc[0]
		}, nil
	}
	if caseSensitive {
		q := []byte(query)
		return func(line []byte) int { return bytes.Index(line, q) }, nil
	}
	q := strings.ToLower(query)
	return func(line []byte) int {
		lowered := strings.ToLower(string(line))
		i := strings.Index(lowered, q)
		if i < 0 {
			return -1
		}
		// Lower-casing may change byte lengths; map back through the
		// UTF-16 column of the lowered text.
		return byteIndexOfUnits(string(line), canon.UTF16Len(lowered[:i]))
	}, nil
}

// byteIndexOfUnits returns the byte offset in s after n UTF-16 units.
func byteIndexOfUnits(s string, n int) int {
	return len(canon.CutUTF16(s, n))
}

// scanLines streams the file at real line by line (lines split on "\n", the
// tail after the last newline is the final line), calling onLine for each
// with its 1-based number, and returns the hex SHA-256 of all bytes. valid
// is false, and scanning stops early, when the file is not UTF-8.
func scanLines(ctx context.Context, real, rel string, onLine func(line []byte, n int)) (hash string, valid bool, err error) {
	f, err := os.Open(real)
	if err != nil {
		return "", false, ioError(rel, err)
	}
	defer f.Close()
	h := sha256.New()
	buf := make([]byte, SearchChunkBytes)
	var carry []byte
	carryUnits := 0
	lineNo := 1
	emit := func(line []byte) bool {
		if !utf8.Valid(line) {
			return false
		}
		onLine(line, lineNo)
		lineNo++
		return true
	}
	for {
		if err := checkContext(ctx); err != nil {
			return "", false, err
		}
		n, rerr := f.Read(buf)
		data := buf[:n]
		h.Write(data)
		for len(data) > 0 {
			i := bytes.IndexByte(data, '\n')
			if i < 0 {
				carry = append(carry, data...)
				carryUnits += unitsOfBytes(data)
				break
			}
			var line []byte
			if len(carry) > 0 {
				carry = append(carry, data[:i]...)
				line = carry
			} else {
				line = data[:i]
			}
			if !emit(line) {
				return "", false, nil
			}
			carry, carryUnits = carry[:0], 0
			data = data[i+1:]
		}
		if carryUnits > MaxSearchLineUnits {
			return "", false, fail(hosterr.LimitExceeded, "Workspace text search line exceeds %d characters: '%s'.", MaxSearchLineUnits, rel)
		}
		if errors.Is(rerr, io.EOF) {
			break
		}
		if rerr != nil {
			return "", false, ioError(rel, rerr)
		}
	}
	if !emit(carry) {
		return "", false, nil
	}
	return hex.EncodeToString(h.Sum(nil)), true, nil
}

// unitsOfBytes counts the UTF-16 units encoded by a run of UTF-8 bytes,
// possibly cut mid-sequence: one per leading byte, two for 4-byte leaders.
func unitsOfBytes(b []byte) int {
	n := 0
	for _, c := range b {
		switch {
		case c&0xC0 == 0x80:
		case c >= 0xF0:
			n += 2
		default:
			n++
		}
	}
	return n
}
