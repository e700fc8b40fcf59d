package checkpoint

import "strings"

// IssueCode classifies a validation [Issue] (CONTRACTS §11.6).
type IssueCode string

// The issue codes.
const (
	CodeInvalidField      IssueCode = "INVALID_FIELD"
	CodeHashMismatch      IssueCode = "HASH_MISMATCH"
	CodeUnsupportedSchema IssueCode = "UNSUPPORTED_SCHEMA"
)

// An Issue is one problem [Validate] found: its code, the original
// runtime's message, and the path of the offending value ("$" for the whole
// checkpoint, otherwise like "workspace.activeFiles[0].kind").
type Issue struct {
	Code    IssueCode `json:"code"`
	Message string    `json:"message"`
	Path    string    `json:"path"`
}

// An IntegrityError is the original runtime's AiCoderCheckpointIntegrityError:
// creation was refused, or [Assert] found issues. Its message is the spec's
// text: for Assert, "<path>: <message>" for each issue, joined by spaces.
type IntegrityError struct {
	Message string
	Issues  []Issue // empty for creation errors
}

// Error returns the spec message unchanged.
func (e *IntegrityError) Error() string { return e.Message }

// newIssuesError joins issues as the original assert does.
func newIssuesError(issues []Issue) *IntegrityError {
	parts := make([]string, len(issues))
	for i, is := range issues {
		parts[i] = is.Path + ": " + is.Message
	}
	return &IntegrityError{Message: strings.Join(parts, " "), Issues: issues}
}
