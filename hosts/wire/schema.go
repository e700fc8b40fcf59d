package wire

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/galaxy-stack/conform/core/schema"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

//go:embed schema/*.json
var schemaFS embed.FS

// Schema names of the JSON-RPC envelopes a host sends.
const (
	SchemaResponse = "response.json"
	SchemaRequest  = "request.json"
	// SchemaPromptInput states the rules of an initialize answer's
	// promptInput for host authors; the core applies them itself.
	SchemaPromptInput = "prompt-input.json"
)

// schemaBase maps each method to the base name of its schemas: the params
// are "<base>.params.json" and the result "<base>.result.json".
var schemaBase = map[string]string{
	MethodInitialize:   "initialize",
	MethodToolsList:    "tools-list",
	MethodToolsRestore: "tools-restore",
	MethodExecute:      "tool-execute",
	MethodFingerprint:  "workspace-fingerprint",
	MethodStorePut:     "store-put",
	MethodStoreGet:     "store-get",
	MethodStoreList:    "store-list",
	MethodTraceAppend:  "trace-append",
	MethodTraceFlush:   "trace-flush",
	MethodTraceList:    "trace-list",
	MethodShutdown:     "shutdown",
	MethodApproval:     "approval-request",
	MethodJobObserve:   "job-observe",
	MethodCancel:       "cancel-request",
}

// ResultSchema returns the schema name for the result of method, or "" if
// the method has none. tools/restore answers with the tool set, as
// tools/list does.
func ResultSchema(method string) string {
	if method == MethodToolsRestore {
		return "tools-list.result.json"
	}
	if method == MethodCancel {
		return ""
	}
	if b, ok := schemaBase[method]; ok {
		return b + ".result.json"
	}
	return ""
}

// ParamsSchema returns the schema name for the params of method, or "" if
// the method is unknown.
func ParamsSchema(method string) string {
	if b, ok := schemaBase[method]; ok {
		return b + ".params.json"
	}
	return ""
}

// ErrorDataSchema returns the schema name for the data of an error with
// code, or "" when the data is free-form.
func ErrorDataSchema(code int64) string {
	switch code {
	case ErrPortFailure.Code:
		return "port-error.json"
	case ErrUnknownOutcome.Code:
		return "unknown-outcome.json"
	}
	return ""
}

// compiledSchemas compiles the published schemas on demand: each is read
// and compiled the first time it, or a schema referring to it, is asked
// for, so a process pays only for the messages it checks.
type compiledSchemas struct {
	mu       sync.Mutex
	compiler *jsonschema.Compiler
	names    []string
	err      error
	compiled map[string]*jsonschema.Schema
}

var schemas compiledSchemas

// load lists the published schemas and makes the compiler, once; s.mu is
// held.
func (s *compiledSchemas) load() error {
	if s.compiler != nil || s.err != nil {
		return s.err
	}
	entries, err := fs.ReadDir(schemaFS, "schema")
	if err != nil {
		s.err = err
		return err
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(embeddedLoader{names: names})
	s.compiler, s.names, s.compiled = c, names, map[string]*jsonschema.Schema{}
	return nil
}

// embeddedLoader loads a published schema by the last element of its URL
// (the compiler makes each name an absolute file URL), and nothing else.
type embeddedLoader struct{ names []string }

func (l embeddedLoader) Load(url string) (any, error) {
	name := path.Base(url)
	if !slices.Contains(l.names, name) {
		return nil, fmt.Errorf("wire: no published schema %q", url)
	}
	b, err := schemaFS.ReadFile("schema/" + name)
	if err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("wire: schema %q: %w", name, err)
	}
	return doc, nil
}

// get returns the compiled schema called name, compiling it on first use.
// ok is false when no schema has that name.
func (s *compiledSchemas) get(name string) (sch *jsonschema.Schema, ok bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.load(); err != nil {
		return nil, false, err
	}
	if sch, ok := s.compiled[name]; ok {
		return sch, true, nil
	}
	if !slices.Contains(s.names, name) {
		return nil, false, nil
	}
	sch, err = s.compiler.Compile(name)
	if err != nil {
		return nil, true, fmt.Errorf("wire: schema %q: %w", name, err)
	}
	s.compiled[name] = sch
	return sch, true, nil
}

// SchemaNames lists the published schemas, sorted.
func SchemaNames() []string {
	schemas.mu.Lock()
	defer schemas.mu.Unlock()
	if schemas.load() != nil {
		return nil
	}
	names := slices.Clone(schemas.names)
	sort.Strings(names)
	return names
}

// SchemaText returns the text of the named schema.
func SchemaText(name string) ([]byte, error) {
	return schemaFS.ReadFile("schema/" + name)
}

// A Violation is one way a message fails its schema.
type Violation struct {
	Pointer string // JSON pointer of the offending value ("" is the root)
	Reason  string
}

// Validate checks raw, a JSON document, against the named schema. It returns
// nil or the first violation in pointer order, so the report is
// deterministic.
//
// The document is validated as jsonschema.UnmarshalJSON decodes it
// (numbers as json.Number, so none is rounded), but parsed without
// copying its plain strings or its numbers out of raw; raw that is not
// JSON is left to jsonschema.UnmarshalJSON, whose error the violation
// quotes.
func Validate(name string, raw []byte) *Violation {
	s, v := schemaNamed(name)
	if v != nil {
		return v
	}
	if !json.Valid(raw) {
		return validateDecoded(s, raw)
	}
	return validateWith(s, viewDocument(raw))
}

// validateDecoded is Validate with the document decoded by
// jsonschema.UnmarshalJSON, the reference that the view Validate
// parses must equal.
func validateDecoded(s *jsonschema.Schema, raw []byte) *Violation {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return &Violation{Reason: "not JSON: " + err.Error()}
	}
	return validateWith(s, inst)
}

// schemaNamed returns the compiled schema called name, or the violation
// that says why there is none.
func schemaNamed(name string) (*jsonschema.Schema, *Violation) {
	s, ok, err := schemas.get(name)
	if err != nil {
		return nil, &Violation{Reason: err.Error()}
	}
	if !ok {
		return nil, &Violation{Reason: fmt.Sprintf("no schema %q", name)}
	}
	return s, nil
}

// ParseTree parses one message into the generic tree [ValidateTree] reads,
// with encoding/json: numbers become float64 (exact for every integer the
// protocol uses; the typed decode that follows rejects anything a field
// cannot hold), and every string is a copy, so the tree costs about the
// line's size for string-heavy messages. [ViewTree] returns the same tree
// with its plain strings left in the line; the strict path of a
// connection uses that.
func ParseTree(line []byte) (map[string]any, error) {
	var v any
	if err := json.Unmarshal(line, &v); err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("not a JSON object")
	}
	return m, nil
}

// ValidateTree checks an already parsed value (a tree of [ParseTree], or a
// part of one) against the named schema, as [Validate] does for raw JSON.
func ValidateTree(name string, inst any) *Violation {
	s, v := schemaNamed(name)
	if v != nil {
		return v
	}
	return validateWith(s, inst)
}

func validateWith(s *jsonschema.Schema, inst any) *Violation {
	err := s.Validate(inst)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return &Violation{Reason: err.Error()}
	}
	vs := leaves(ve, nil)
	sort.Slice(vs, func(i, j int) bool {
		if vs[i].Pointer != vs[j].Pointer {
			return vs[i].Pointer < vs[j].Pointer
		}
		return vs[i].Reason < vs[j].Reason
	})
	// A violation is kept in errors and reports, past the tree it was
	// found in, whose strings may share a message's line: it owns its text.
	return &Violation{Pointer: strings.Clone(vs[0].Pointer), Reason: strings.Clone(vs[0].Reason)}
}

var printer = message.NewPrinter(language.English)

func leaves(ve *jsonschema.ValidationError, out []Violation) []Violation {
	if len(ve.Causes) > 0 {
		for _, c := range ve.Causes {
			out = leaves(c, out)
		}
		return out
	}
	base := schema.JoinPointer(ve.InstanceLocation)
	switch k := ve.ErrorKind.(type) {
	case *kind.Required:
		for _, p := range k.Missing {
			out = append(out, Violation{Pointer: base + "/" + schema.PointerToken(p), Reason: "required field is missing"})
		}
		return out
	case *kind.AdditionalProperties:
		for _, p := range k.Properties {
			out = append(out, Violation{Pointer: base + "/" + schema.PointerToken(p), Reason: "unknown field"})
		}
		return out
	}
	return append(out, Violation{Pointer: base, Reason: ve.ErrorKind.LocalizedString(printer)})
}
