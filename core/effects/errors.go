package effects

// CodeToolExecution is the runtime error code of every result or tool-set
// contract violation (CONTRACTS §7.7).
const CodeToolExecution = "TOOL_EXECUTION"

// An Error is a contract violation found by a check of this package. Code is
// the runtime error code (always CodeToolExecution here) and Message the
// exact message of the original runtime.
type Error struct {
	Code    string
	Message string
}

// ErrToolExecution matches, with errors.Is, every *Error whose code is
// TOOL_EXECUTION.
var ErrToolExecution error = &Error{Code: CodeToolExecution}

// Error returns "<code>: <message>".
func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Is reports whether target is an *Error with the same code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

func toolExecution(msg string) *Error { return &Error{Code: CodeToolExecution, Message: msg} }
