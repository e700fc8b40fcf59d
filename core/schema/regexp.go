package schema

import (
	"fmt"
	"regexp"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// compilePattern compiles a schema "pattern" the way this package evaluates
// it: the workspace-path pattern as code, every other pattern with Go's RE2
// as an unanchored search (CONTRACTS §5.3, DECISIONS 37).
func compilePattern(p string) (jsonschema.Regexp, error) {
	if p == WorkspacePathPattern {
		return workspacePathRegexp{}, nil
	}
	re, err := regexp.Compile(p)
	if err != nil {
		return nil, fmt.Errorf("pattern %q does not compile: %w", p, err)
	}
	return re, nil
}

// workspacePathRegexp stands in for [WorkspacePathPattern] in the validator.
type workspacePathRegexp struct{}

func (workspacePathRegexp) MatchString(s string) bool { return WorkspacePath(s) == nil }

func (workspacePathRegexp) String() string { return WorkspacePathPattern }
