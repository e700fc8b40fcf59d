package wire

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"sort"
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

var (
	schemasOnce sync.Once
	schemas     map[string]*jsonschema.Schema
	schemasErr  error
)

func loadSchemas() (map[string]*jsonschema.Schema, error) {
	schemasOnce.Do(func() {
		c := jsonschema.NewCompiler()
		entries, err := fs.ReadDir(schemaFS, "schema")
		if err != nil {
			schemasErr = err
			return
		}
		var names []string
		for _, e := range entries {
			b, err := schemaFS.ReadFile("schema/" + e.Name())
			if err != nil {
				schemasErr = err
				return
			}
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
			if err != nil {
				schemasErr = fmt.Errorf("wire: schema %q: %w", e.Name(), err)
				return
			}
			if err := c.AddResource(e.Name(), doc); err != nil {
				schemasErr = fmt.Errorf("wire: schema %q: %w", e.Name(), err)
				return
			}
			names = append(names, e.Name())
		}
		schemas = map[string]*jsonschema.Schema{}
		for _, n := range names {
			s, err := c.Compile(n)
			if err != nil {
				schemasErr = fmt.Errorf("wire: schema %q: %w", n, err)
				return
			}
			schemas[n] = s
		}
	})
	return schemas, schemasErr
}

// SchemaNames lists the published schemas, sorted.
func SchemaNames() []string {
	m, _ := loadSchemas()
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
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
func Validate(name string, raw []byte) *Violation {
	s, v := schemaNamed(name)
	if v != nil {
		return v
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return &Violation{Reason: "not JSON: " + err.Error()}
	}
	return validateWith(s, inst)
}

// schemaNamed returns the compiled schema called name, or the violation
// that says why there is none.
func schemaNamed(name string) (*jsonschema.Schema, *Violation) {
	m, err := loadSchemas()
	if err != nil {
		return nil, &Violation{Reason: err.Error()}
	}
	s, ok := m[name]
	if !ok {
		return nil, &Violation{Reason: fmt.Sprintf("no schema %q", name)}
	}
	return s, nil
}

// ParseTree parses one message into the generic tree [ValidateTree] reads.
// It is the only parse of a message on the strict path: numbers become
// float64 (exact for every integer the protocol uses; the typed decode
// that follows rejects anything a field cannot hold), and the tree costs
// about the line's size for string-heavy messages.
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
	return &vs[0]
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
