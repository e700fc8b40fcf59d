package schema

import (
	"fmt"
	"strings"
)

// A Violation is one reason a value does not satisfy a schema.
type Violation struct {
	// Pointer is the JSON pointer (RFC 6901) of the offending value within
	// the validated value; "" is the whole value. For a missing required
	// property it is the pointer the property would have.
	Pointer string `json:"pointer"`
	// Keyword is the subset keyword that failed ("type", "required",
	// "pattern", ...).
	Keyword string `json:"keyword"`
	// Message says what is wrong, in conform's words.
	Message string `json:"message"`
}

// String formats v as "<pointer>: <message>", with "(root)" for the
// whole value.
func (v Violation) String() string {
	at := v.Pointer
	if at == "" {
		at = "(root)"
	}
	return at + ": " + v.Message
}

// A ValueError is returned by [Validate] when a value does not satisfy a
// schema. Violations are sorted by pointer, then keyword, then message.
type ValueError struct {
	Violations []Violation
}

// Error lists every violation after a fixed prefix.
func (e *ValueError) Error() string {
	parts := make([]string, len(e.Violations))
	for i, v := range e.Violations {
		parts[i] = v.String()
	}
	return "value does not match the schema: " + strings.Join(parts, "; ")
}

// A DefinitionError is returned by [Validate] when the schema itself is not
// in the subset; Problems are the messages of [CheckDefinition].
type DefinitionError struct {
	Problems []string
}

// Error lists every definition problem after a fixed prefix.
func (e *DefinitionError) Error() string {
	return fmt.Sprintf("schema is not in the supported subset: %s", strings.Join(e.Problems, "; "))
}
