package schema

import (
	"fmt"
	"regexp"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// compilePattern compiles a schema "pattern" the way this package evaluates
// it: the workspace-path pattern as code, every other pattern with Go's RE2
// as an unanchored search (CONTRACTS §5.3, DECISIONS 37).
//
// A pattern is compiled once per process: checking a schema's definition
// and compiling the schema both compile its patterns, and many schemas
// share theirs. A compiled *regexp.Regexp is safe for concurrent use.
func compilePattern(p string) (jsonschema.Regexp, error) {
	if p == WorkspacePathPattern {
		return workspacePathRegexp{}, nil
	}
	if re, ok := patterns.get(p); ok {
		return re, nil
	}
	re, err := regexp.Compile(p)
	if err != nil {
		return nil, fmt.Errorf("pattern %q does not compile: %w", p, err)
	}
	patterns.add(p, re)
	return re, nil
}

// patterns memoizes compiled patterns by their source, up to
// patternMemoSize of them (it is emptied when full, so that schemas from
// an untrusted peer cannot grow it without bound).
var patterns = &patternMemo{compiled: map[string]*regexp.Regexp{}}

const patternMemoSize = 512

type patternMemo struct {
	mu       sync.Mutex
	compiled map[string]*regexp.Regexp
}

func (m *patternMemo) get(p string) (*regexp.Regexp, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	re, ok := m.compiled[p]
	return re, ok
}

func (m *patternMemo) add(p string, re *regexp.Regexp) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.compiled) >= patternMemoSize {
		clear(m.compiled)
	}
	m.compiled[p] = re
}

// workspacePathRegexp stands in for [WorkspacePathPattern] in the validator.
type workspacePathRegexp struct{}

func (workspacePathRegexp) MatchString(s string) bool { return WorkspacePath(s) == nil }

func (workspacePathRegexp) String() string { return WorkspacePathPattern }
