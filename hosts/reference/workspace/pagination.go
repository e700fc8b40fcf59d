package workspace

import (
	"strconv"
	"strings"

	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
)

// Pagination is the page state of a paged result (CONTRACTS §13.4).
// NextCursor is set only when HasMore is true.
type Pagination struct {
	HasMore    bool   `json:"hasMore"`
	NextCursor string `json:"nextCursor,omitempty"`
}

const offsetCursorPrefix = "offset:"

// decodeOffset parses an "offset:<decimal>" cursor; "" means offset 0.
func decodeOffset(cursor string) (int, error) {
	if cursor == "" {
		return 0, nil
	}
	digits, ok := strings.CutPrefix(cursor, offsetCursorPrefix)
	if !ok || !allDigits(digits) {
		return 0, fail(hosterr.InvalidInput, "Invalid pagination cursor.")
	}
	n, err := strconv.Atoi(digits)
	if err != nil || n > maxSafeInteger {
		return 0, fail(hosterr.InvalidInput, "Invalid pagination cursor.")
	}
	return n, nil
}

// maxSafeInteger is the largest integer the original runtime accepts in
// numeric cursor fields (JavaScript's Number.MAX_SAFE_INTEGER).
const maxSafeInteger = 1<<53 - 1

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// boundLimit applies the page-limit rules: 0 means DefaultPageLimit, a
// negative limit is INVALID_INPUT, anything above MaxPageLimit is clamped.
func boundLimit(limit int) (int, error) {
	switch {
	case limit == 0:
		return DefaultPageLimit, nil
	case limit < 0:
		return 0, fail(hosterr.InvalidInput, "Pagination limit must be a positive integer.")
	case limit > MaxPageLimit:
		return MaxPageLimit, nil
	}
	return limit, nil
}

// pageOf returns one offset page of values.
func pageOf[T any](values []T, cursor string, limit int) ([]T, Pagination, error) {
	offset, err := decodeOffset(cursor)
	if err != nil {
		return nil, Pagination{}, err
	}
	limit, err = boundLimit(limit)
	if err != nil {
		return nil, Pagination{}, err
	}
	if offset > len(values) {
		return nil, Pagination{}, fail(hosterr.InvalidInput, "Pagination cursor is outside the result set.")
	}
	end := min(offset+limit, len(values))
	out := append([]T{}, values[offset:end]...)
	p := Pagination{HasMore: end < len(values)}
	if p.HasMore {
		p.NextCursor = offsetCursorPrefix + strconv.Itoa(end)
	}
	return out, p, nil
}
