package schema

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// WorkspacePathPattern is the ECMAScript pattern of the WORKSPACE_PATH
// schema fragment (CONTRACTS §6.1). Schemas carry it verbatim so that a host
// with an ECMAScript-compatible regex engine can use it as it is. Go's RE2
// cannot compile its lookaheads, so this package recognises the pattern by
// its exact text and evaluates [WorkspacePath] instead.
const WorkspacePathPattern = `^(?:\.|(?!/)(?![A-Za-z]:)(?!.*\\)(?!.*\u0000)(?!.*(?:^|/)\.\.(?:/|$))(?!.*//)(?!.*/$).+)$`

// The reasons [WorkspacePath] gives, one per rule of CONTRACTS §6.1; match
// them with errors.Is.
var (
	ErrPathEmpty         = errors.New("it is empty")
	ErrPathLineBreak     = errors.New("it contains a line break")
	ErrPathAbsolute      = errors.New(`it starts with "/"`)
	ErrPathDriveLetter   = errors.New("it starts with a drive letter")
	ErrPathBackslash     = errors.New("it contains a backslash")
	ErrPathNUL           = errors.New("it contains a NUL character")
	ErrPathTraversal     = errors.New(`it has a ".." segment`)
	ErrPathEmptySegment  = errors.New(`it contains "//"`)
	ErrPathTrailingSlash = errors.New(`it ends with "/"`)
)

// WorkspacePath reports whether s is a portable workspace-relative POSIX
// path (CONTRACTS §6.1): exactly ".", or a non-empty path that does not
// start with "/" or a drive letter ("C:"), contains no backslash, NUL or
// "//", has no ".." segment and does not end with "/". Single-dot segments
// ("./src", "nested/.") are allowed. Like the ECMAScript pattern, whose "."
// does not match line terminators, it also rejects CR, LF, U+2028 and
// U+2029. Length bounds belong to the schema, not to this function.
//
// The error quotes s and wraps one of the ErrPath reasons.
func WorkspacePath(s string) error {
	if s == "." {
		return nil
	}
	if reason := workspacePathReason(s); reason != nil {
		return fmt.Errorf("%q is not a workspace-relative path: %w", s, reason)
	}
	return nil
}

func workspacePathReason(s string) error {
	switch {
	case s == "":
		return ErrPathEmpty
	case strings.ContainsAny(s, "\n\r\u2028\u2029"):
		return ErrPathLineBreak
	case strings.HasPrefix(s, "/"):
		return ErrPathAbsolute
	case len(s) >= 2 && isASCIILetter(s[0]) && s[1] == ':':
		return ErrPathDriveLetter
	case strings.Contains(s, `\`):
		return ErrPathBackslash
	case strings.Contains(s, "\x00"):
		return ErrPathNUL
	case slices.Contains(strings.Split(s, "/"), ".."):
		return ErrPathTraversal
	case strings.Contains(s, "//"):
		return ErrPathEmptySegment
	case strings.HasSuffix(s, "/"):
		return ErrPathTrailingSlash
	}
	return nil
}

func isASCIILetter(b byte) bool { return ('a' <= b && b <= 'z') || ('A' <= b && b <= 'Z') }
