package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

const resourceURL = "https://conform.invalid/schema.json"

// A Validator validates values against subset schemas, compiling each
// distinct schema once. Schemas are identified by their canonical JSON text,
// so equal schemas built separately share one compiled form. A Validator is
// safe for concurrent use; its zero value is not usable, call [NewValidator].
type Validator struct {
	mu       sync.Mutex
	vocab    *jsonschema.Vocabulary
	vocabErr error
	compiled map[string]*jsonschema.Schema
}

// NewValidator returns a Validator with an empty cache.
func NewValidator() *Validator {
	vocab, err := newLengthVocabulary()
	return &Validator{vocab: vocab, vocabErr: err, compiled: map[string]*jsonschema.Schema{}}
}

var shared = NewValidator()

// Validate checks value against schema with a shared [Validator]. The
// shared cache only memoizes compilation; it never changes a result.
func Validate(schema map[string]any, value any) error {
	return shared.Validate(schema, value)
}

// Validate checks value against schema (CONTRACTS §5.3). value may be any
// Go value that encodes to JSON (decoded JSON, maps with Go numbers,
// structs); it is compared in its JSON form.
//
// It returns nil when value satisfies schema, a [*DefinitionError] when
// schema is not in the subset, a [*ValueError] listing the violations with
// their JSON pointers when value does not satisfy it, and another error
// when value cannot be encoded as JSON.
func (v *Validator) Validate(schema map[string]any, value any) error {
	sch, err := v.compile(schema)
	if err != nil {
		return err
	}
	inst, err := instance(value)
	if err != nil {
		return fmt.Errorf("schema: value is not JSON: %w", err)
	}
	return result(sch.Validate(inst))
}

// instance is value in the form the validator takes: [Decoded]'s answer,
// or, for a value Decoded leaves to the encoder, toJSONValue's. Decoded
// shares the maps and slices of value that need no change; the validator
// only reads them, and keeps nothing of an instance after answering.
func instance(value any) (any, error) {
	if inst, ok := Decoded(value); ok {
		return inst, nil
	}
	return toJSONValue(value)
}

// result maps the validator library's answer to Validate's errors.
func result(verr error) error {
	if verr == nil {
		return nil
	}
	ve, ok := verr.(*jsonschema.ValidationError)
	if !ok {
		return fmt.Errorf("schema: validate: %w", verr)
	}
	return &ValueError{Violations: violations(ve)}
}

// Check returns the definition problems of schema and, when there are none,
// compiles it into the cache, so that later validations against it only
// validate. It is the registration-time counterpart of Validate.
func (v *Validator) Check(schema map[string]any) error {
	_, err := v.compile(schema)
	return err
}

func (v *Validator) compile(schema map[string]any) (*jsonschema.Schema, error) {
	if v.vocabErr != nil {
		return nil, fmt.Errorf("schema: %w", v.vocabErr)
	}
	key, err := canonicalText(schema)
	if err != nil {
		return nil, fmt.Errorf("schema: schema is not JSON: %w", err)
	}
	v.mu.Lock()
	sch, ok := v.compiled[key]
	v.mu.Unlock()
	if ok {
		return sch, nil
	}
	if problems := CheckDefinition(schema); len(problems) > 0 {
		return nil, &DefinitionError{Problems: problems}
	}
	doc, err := toJSONValue(translate(schema))
	if err != nil {
		return nil, fmt.Errorf("schema: schema is not JSON: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft7)
	c.UseRegexpEngine(compilePattern)
	c.AssertVocabs()
	c.RegisterVocabulary(v.vocab)
	if err := c.AddResource(resourceURL, doc); err != nil {
		return nil, fmt.Errorf("schema: add schema: %w", err)
	}
	sch, err = c.Compile(resourceURL)
	if err != nil {
		return nil, fmt.Errorf("schema: compile: %w", err)
	}
	v.mu.Lock()
	v.compiled[key] = sch
	v.mu.Unlock()
	return sch, nil
}

// toJSONValue encodes v and decodes it the way the validator library
// expects (numbers as json.Number). A schema is compiled from this copy,
// which shares nothing with the caller's maps.
func toJSONValue(v any) (any, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return decodeJSONValue(raw)
}

// decodeJSONValue decodes the JSON text raw the way the validator library
// expects.
func decodeJSONValue(raw []byte) (any, error) {
	return jsonschema.UnmarshalJSON(bytes.NewReader(raw))
}
