package workspace

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
)

// A ReadRequest asks for a bounded UTF-8 range of one file. StartLine and
// EndLine are 1-based and inclusive; 0 means unset (from line 1, to the
// last line; an EndLine past the end is clamped). MaxBytes 0 means
// DefaultReadMaxBytes and must otherwise be MinReadMaxBytes..
// DefaultReadMaxBytes. Cursor continues a truncated read; explicit lines
// given with a cursor must equal the cursor's.
type ReadRequest struct {
	Path      string
	StartLine int
	EndLine   int
	MaxBytes  int
	Cursor    string
}

// A ReadResult is one chunk of a file. ContentSha256 is the bare hex hash
// of the whole file's bytes (a byte-order mark is kept, DECISIONS 47);
// StartLine and EndLine are the lines the chunk spans; Truncated is true
// when the selected range continues past the chunk, and then
// Pagination.NextCursor continues it.
type ReadResult struct {
	Content       string     `json:"content"`
	ContentSha256 string     `json:"contentSha256"`
	Path          string     `json:"path"`
	ResolvedPath  string     `json:"resolvedPath"`
	StartLine     int        `json:"startLine"`
	EndLine       int        `json:"endLine"`
	Truncated     bool       `json:"truncated"`
	Pagination    Pagination `json:"pagination"`
}

type readCursor struct {
	hash             string
	start, end, skip int
}

const textCursorPrefix = "text:"

// parseReadCursor parses "text:<64 hex>:<start>:<end>:<byteOffset>".
func parseReadCursor(c string) (readCursor, error) {
	bad := fail(hosterr.InvalidInput, "Invalid text pagination cursor.")
	rest, ok := strings.CutPrefix(c, textCursorPrefix)
	if !ok {
		return readCursor{}, bad
	}
	parts := strings.Split(rest, ":")
	if len(parts) != 4 || !isLowerHex64(parts[0]) {
		return readCursor{}, bad
	}
	var nums [3]int
	for i, s := range parts[1:] {
		n, err := strconv.Atoi(s)
		if !allDigits(s) || err != nil || n > maxSafeInteger {
			return readCursor{}, bad
		}
		nums[i] = n
	}
	return readCursor{hash: parts[0], start: nums[0], end: nums[1], skip: nums[2]}, nil
}

// ReadText reads a bounded range of a regular UTF-8 file (LAB_AND_HOSTS
// §10.4 readText). Invalid UTF-8 is INVALID_INPUT and is never decoded
// lossily; a file above MaxReadFileBytes is LIMIT_EXCEEDED; a cursor issued
// for other content is CONFLICT.
func (r *Root) ReadText(ctx context.Context, req ReadRequest) (ReadResult, error) {
	if err := checkContext(ctx); err != nil {
		return ReadResult{}, err
	}
	real, fi, err := r.statExisting(req.Path)
	if err != nil {
		return ReadResult{}, err
	}
	if !fi.regular {
		return ReadResult{}, fail(hosterr.InvalidInput, "readText requires a regular file.")
	}
	if fi.size > MaxReadFileBytes {
		return ReadResult{}, fail(hosterr.LimitExceeded, "Text file exceeds the %d byte host limit.", MaxReadFileBytes)
	}
	data, err := readSized(real, fi.size)
	if err != nil {
		return ReadResult{}, ioError(req.Path, err)
	}
	if !utf8.Valid(data) {
		if !r.faults.DecodeInvalidUTF8 {
			return ReadResult{}, invalidUTF8(req.Path)
		}
		data = lossyUTF8(data)
	}
	hash := SHA256Hex(data)
	lineCount := bytes.Count(data, []byte{'\n'}) + 1

	var cur *readCursor
	if req.Cursor != "" {
		c, err := parseReadCursor(req.Cursor)
		if err != nil {
			return ReadResult{}, err
		}
		if c.hash != hash {
			return ReadResult{}, fail(hosterr.Conflict, "The file changed after the text cursor was issued.")
		}
		if (req.StartLine != 0 && req.StartLine != c.start) || (req.EndLine != 0 && req.EndLine != c.end) {
			return ReadResult{}, fail(hosterr.InvalidInput, "Line range does not match the text cursor.")
		}
		cur = &c
	}
	start, end := 1, lineCount
	if req.StartLine != 0 {
		start = req.StartLine
	}
	if req.EndLine != 0 && !r.faults.IgnoreReadEndLine {
		end = min(req.EndLine, lineCount)
	}
	if cur != nil {
		start, end = cur.start, cur.end
	}
	if start < 1 || start > lineCount || end < start || end > lineCount {
		return ReadResult{}, fail(hosterr.InvalidInput, "Invalid line range.")
	}
	maxBytes := req.MaxBytes
	if maxBytes == 0 {
		maxBytes = DefaultReadMaxBytes
	}
	if maxBytes < MinReadMaxBytes || maxBytes > DefaultReadMaxBytes {
		return ReadResult{}, fail(hosterr.InvalidInput, "maxBytes must be between %d and %d.", MinReadMaxBytes, DefaultReadMaxBytes)
	}
	if r.faults.IgnoreReadMaxBytes {
		maxBytes = DefaultReadMaxBytes
	}
	selected := selectLines(data, start, end)
	offset := 0
	if cur != nil {
		offset = cur.skip
	}
	if offset > len(selected) {
		return ReadResult{}, fail(hosterr.InvalidInput, "Text cursor is outside the requested range.")
	}
	chunkEnd, err := utf8Chunk(selected, offset, maxBytes)
	if err != nil {
		return ReadResult{}, err
	}
	chunk := selected[offset:chunkEnd]
	first := start + bytes.Count(selected[:offset], []byte{'\n'})
	if r.faults.ReadHashOfRange {
		hash = SHA256Hex(chunk)
	}
	res := ReadResult{
		Content:       string(chunk),
		ContentSha256: hash,
		Path:          req.Path,
		ResolvedPath:  real,
		StartLine:     first,
		EndLine:       first + bytes.Count(chunk, []byte{'\n'}),
		Truncated:     chunkEnd < len(selected),
	}
	res.Pagination.HasMore = res.Truncated
	if res.Truncated {
		res.Pagination.NextCursor = fmt.Sprintf("%s%s:%d:%d:%d", textCursorPrefix, hash, start, end, chunkEnd)
	}
	return res, nil
}

// selectLines returns lines start..end (1-based, inclusive) of data joined
// by "\n", i.e. the bytes between the start of line start and the newline
// that ends line end.
func selectLines(data []byte, start, end int) []byte {
	from, line := 0, 1
	for line < start {
		from += bytes.IndexByte(data[from:], '\n') + 1
		line++
	}
	to := from
	for {
		i := bytes.IndexByte(data[to:], '\n')
		if i < 0 {
			return data[from:]
		}
		if line == end {
			return data[from : to+i]
		}
		to += i + 1
		line++
	}
}

// utf8Chunk returns the end of the longest valid UTF-8 chunk of at most
// maxBytes bytes starting at offset (LAB_AND_HOSTS §10.4 step 8).
func utf8Chunk(b []byte, offset, maxBytes int) (int, error) {
	if !utf8.Valid(b[:offset]) {
		return 0, fail(hosterr.InvalidInput, "Text cursor is not aligned to a UTF-8 character boundary.")
	}
	if offset >= len(b) {
		return offset, nil
	}
	for end := min(len(b), offset+maxBytes); end > offset; end-- {
		if utf8.Valid(b[offset:end]) {
			return end, nil
		}
	}
	return 0, fail(hosterr.LimitExceeded, "maxBytes is too small for the next UTF-8 character.")
}

// invalidUTF8 is the failure of a text operation on a file that is not
// valid UTF-8.
func invalidUTF8(rel string) error {
	return fail(hosterr.InvalidInput, "Workspace text operation requires valid UTF-8: '%s'.", rel)
}
