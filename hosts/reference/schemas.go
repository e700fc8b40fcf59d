package reference

import (
	"sync"

	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/schema"
)

// toolSchemas are the compiled input and output schemas of a session's
// tools by canonical ID, each compiled on its tool's first call. The
// session's registry is built once and never changes the descriptor of an
// ID, and the faults that change an input schema are fixed for the
// session, so a tool's schemas compile to the same thing on every call:
// holding them spares each call computing the canonical text of both
// schemas only to find them in the validator's cache. A schema that does
// not compile is not held, so each call reports its error, as the
// validator does.
type toolSchemas struct {
	mu      sync.Mutex
	in, out map[string]*schema.Compiled
}

// validateInput checks a call's decoded arguments against the input schema
// of d (see [session.inputSchema]), with the answers of
// [schema.Validator.Validate].
func (s *session) validateInput(d catalog.Descriptor, args map[string]any) error {
	c, err := s.schemas.get(&s.schemas.in, d.ID, func() (*schema.Compiled, error) {
		return s.validator.Compile(s.inputSchema(d))
	})
	if err != nil {
		return err
	}
	return c.Validate(args)
}

// outputSchema is the compiled output schema of d.
func (s *session) outputSchema(d catalog.Descriptor) (*schema.Compiled, error) {
	return s.schemas.get(&s.schemas.out, d.ID, func() (*schema.Compiled, error) {
		return s.validator.Compile(d.OutputSchema)
	})
}

// validateOutput checks a tool's output against the output schema of d,
// with the answers of [schema.Validator.Validate]. content and encErr are
// what [compactJSON] made of output: when it encoded, content is checked,
// sparing a second encoding; it differs from encoding/json's text only in
// the escaping of <, > and &, which decodes to the same value. When it did
// not encode, output is checked itself, so that the error is the
// validator's.
func (s *session) validateOutput(d catalog.Descriptor, output any, content string, encErr error) error {
	c, err := s.outputSchema(d)
	if err != nil {
		return err
	}
	if encErr != nil {
		return c.Validate(output)
	}
	return c.ValidateJSON([]byte(content))
}

// get returns the schema held in *m for id, compiling and holding it
// first when there is none.
func (t *toolSchemas) get(m *map[string]*schema.Compiled, id string, compile func() (*schema.Compiled, error)) (*schema.Compiled, error) {
	t.mu.Lock()
	c, ok := (*m)[id]
	t.mu.Unlock()
	if ok {
		return c, nil
	}
	c, err := compile()
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if *m == nil {
		*m = map[string]*schema.Compiled{}
	}
	(*m)[id] = c
	return c, nil
}
