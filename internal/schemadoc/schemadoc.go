// Package schemadoc compiles an embedded JSON Schema (draft 2020-12) once,
// on first use, and validates documents against it, naming the schema's
// file in every error.
package schemadoc

import (
	"bytes"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// A Schema is one embedded JSON Schema document.
type Schema struct {
	name, url string
	data      []byte
	compiled  func() (*jsonschema.Schema, error)
}

// New returns the schema data, named name in errors (its repository
// path, e.g. "matrix/expect/schema/expectations.schema.json") and
// registered under url (its $id, or its file name). It compiles on the
// first Compiled or Validate.
func New(name, url string, data []byte) *Schema {
	s := &Schema{name: name, url: url, data: data}
	s.compiled = sync.OnceValues(s.compile)
	return s
}

// JSON returns the schema document itself.
func (s *Schema) JSON() []byte { return s.data }

// Compiled returns the compiled schema.
func (s *Schema) Compiled() (*jsonschema.Schema, error) { return s.compiled() }

func (s *Schema) compile() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(s.data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.name, err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(s.url, doc); err != nil {
		return nil, fmt.Errorf("%s: %w", s.name, err)
	}
	out, err := c.Compile(s.url)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.name, err)
	}
	return out, nil
}

// Validate checks data against the schema; the error lists every
// violation with its JSON location.
func (s *Schema) Validate(data []byte) error {
	compiled, err := s.compiled()
	if err != nil {
		return err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	if err := compiled.Validate(v); err != nil {
		return fmt.Errorf("does not follow %s: %w", s.name, err)
	}
	return nil
}
