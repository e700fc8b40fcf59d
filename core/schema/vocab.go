package schema

import (
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/message"
)

const vocabURL = "https://conform.invalid/vocab/utf16-length.json"

// newLengthVocabulary returns the vocabulary that evaluates string lengths
// in UTF-16 code units.
func newLengthVocabulary() (*jsonschema.Vocabulary, error) {
	meta, err := jsonschema.UnmarshalJSON(strings.NewReader(`{"properties":{"` +
		kwMinLength + `":{"type":"integer","minimum":0},"` +
		kwMaxLength + `":{"type":"integer","minimum":0}}}`))
	if err != nil {
		return nil, fmt.Errorf("parse length vocabulary: %w", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(vocabURL, meta); err != nil {
		return nil, fmt.Errorf("add length vocabulary: %w", err)
	}
	sch, err := c.Compile(vocabURL)
	if err != nil {
		return nil, fmt.Errorf("compile length vocabulary: %w", err)
	}
	return &jsonschema.Vocabulary{URL: vocabURL, Schema: sch, Compile: compileLength}, nil
}

func compileLength(_ *jsonschema.CompilerContext, obj map[string]any) (jsonschema.SchemaExt, error) {
	lo, hasLo := nonNegativeInteger(obj[kwMinLength])
	hi, hasHi := nonNegativeInteger(obj[kwMaxLength])
	if !hasLo && !hasHi {
		return nil, nil
	}
	ext := &lengthExt{min: -1, max: -1}
	if hasLo {
		ext.min = int(lo)
	}
	if hasHi {
		ext.max = int(hi)
	}
	return ext, nil
}

// lengthExt checks "minLength" and "maxLength"; -1 means absent.
type lengthExt struct{ min, max int }

func (e *lengthExt) Validate(ctx *jsonschema.ValidatorContext, v any) {
	s, ok := v.(string)
	if !ok {
		return
	}
	n := utf16Len(s)
	if e.min >= 0 && n < e.min {
		ctx.AddError(&lengthKind{keyword: "minLength", got: n, want: e.min})
	}
	if e.max >= 0 && n > e.max {
		ctx.AddError(&lengthKind{keyword: "maxLength", got: n, want: e.max})
	}
}

// lengthKind is the error kind of a UTF-16 length violation.
type lengthKind struct {
	keyword   string
	got, want int
}

func (k *lengthKind) KeywordPath() []string { return []string{k.keyword} }

func (k *lengthKind) LocalizedString(*message.Printer) string { return k.message() }

func (k *lengthKind) message() string {
	if k.keyword == "minLength" {
		return fmt.Sprintf("has %d UTF-16 code units, fewer than the minimum %d", k.got, k.want)
	}
	return fmt.Sprintf("has %d UTF-16 code units, more than the maximum %d", k.got, k.want)
}
