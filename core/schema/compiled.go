package schema

import (
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// A Compiled is one schema checked and compiled once, for validating many
// values against it without computing the schema's cache key on every
// call. Create it with [Validator.Compile] or [Compile].
type Compiled struct {
	sch *jsonschema.Schema
}

// Compile checks schema and compiles it with v, as [Validator.Check] does,
// and returns the compiled form. It returns the errors Validate would
// return for a schema outside the subset.
func (v *Validator) Compile(schema map[string]any) (*Compiled, error) {
	sch, err := v.compile(schema)
	if err != nil {
		return nil, err
	}
	return &Compiled{sch: sch}, nil
}

// Compile compiles schema with the shared [Validator].
func Compile(schema map[string]any) (*Compiled, error) {
	return shared.Compile(schema)
}

// Validate checks value against the compiled schema, with the results of
// [Validator.Validate].
func (c *Compiled) Validate(value any) error {
	inst, err := instance(value)
	if err != nil {
		return fmt.Errorf("schema: value is not JSON: %w", err)
	}
	return result(c.sch.Validate(inst))
}

// ValidateJSON checks the JSON text raw against the compiled schema: the
// result of Validate for a value whose encoding is raw.
func (c *Compiled) ValidateJSON(raw []byte) error {
	inst, err := decodeJSONValue(raw)
	if err != nil {
		return fmt.Errorf("schema: value is not JSON: %w", err)
	}
	return result(c.sch.Validate(inst))
}
