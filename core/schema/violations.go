package schema

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// violations flattens the library's error tree into sorted, de-duplicated
// violations.
func violations(root *jsonschema.ValidationError) []Violation {
	var out []Violation
	collect(root, &out)
	slices.SortFunc(out, func(a, b Violation) int {
		return cmp.Or(strings.Compare(a.Pointer, b.Pointer), strings.Compare(a.Keyword, b.Keyword), strings.Compare(a.Message, b.Message))
	})
	return slices.Compact(out)
}

func collect(e *jsonschema.ValidationError, out *[]Violation) {
	at := JoinPointer(e.InstanceLocation)
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		for _, name := range k.Missing {
			*out = append(*out, Violation{Pointer: at + "/" + PointerToken(name), Keyword: "required", Message: "is required"})
		}
		return
	case *kind.AdditionalProperties:
		for _, name := range k.Properties {
			*out = append(*out, Violation{Pointer: at + "/" + PointerToken(name), Keyword: "additionalProperties", Message: "is not a declared property"})
		}
		return
	case *kind.OneOf:
		*out = append(*out, Violation{Pointer: at, Keyword: "oneOf", Message: oneOfMessage(k)})
		return
	}
	if len(e.Causes) > 0 {
		for _, c := range e.Causes {
			collect(c, out)
		}
		return
	}
	keyword, msg := describe(e.ErrorKind)
	*out = append(*out, Violation{Pointer: at, Keyword: keyword, Message: msg})
}

func oneOfMessage(k *kind.OneOf) string {
	if len(k.Subschemas) < 2 {
		return `matches none of the "oneOf" schemas, want exactly one`
	}
	return fmt.Sprintf(`matches "oneOf" schemas %d and %d, want exactly one`, k.Subschemas[0], k.Subschemas[1])
}

var printer = message.NewPrinter(language.English)

// describe gives the subset keyword and conform's message for a leaf error.
func describe(ek jsonschema.ErrorKind) (keyword, msg string) {
	switch k := ek.(type) {
	case *lengthKind:
		return k.keyword, k.message()
	case *kind.Type:
		return "type", fmt.Sprintf("must be of type %s, got %s", strings.Join(k.Want, " or "), k.Got)
	case *kind.Enum:
		return "enum", "must be one of " + jsonText(k.Want)
	case *kind.Const:
		return "const", "must equal " + jsonText(k.Want)
	case *kind.Not:
		return "enum", "an object or array never equals a const or enum value"
	case *kind.Pattern:
		if k.Want == WorkspacePathPattern {
			return "pattern", WorkspacePath(k.Got).Error()
		}
		return "pattern", fmt.Sprintf("%q does not match the pattern %q", k.Got, k.Want)
	case *kind.Minimum:
		return "minimum", fmt.Sprintf("%s is less than the minimum %s", ratText(k.Got.FloatString(20)), ratText(k.Want.FloatString(20)))
	case *kind.Maximum:
		return "maximum", fmt.Sprintf("%s is greater than the maximum %s", ratText(k.Got.FloatString(20)), ratText(k.Want.FloatString(20)))
	case *kind.MinItems:
		return "minItems", fmt.Sprintf("has %d items, fewer than the minimum %d", k.Got, k.Want)
	case *kind.MaxItems:
		return "maxItems", fmt.Sprintf("has %d items, more than the maximum %d", k.Got, k.Want)
	case *kind.UniqueItems:
		return "uniqueItems", fmt.Sprintf("items %d and %d are equal", k.Duplicates[0], k.Duplicates[1])
	case *kind.FalseSchema:
		return "false", "no value is allowed here"
	}
	path := ek.KeywordPath()
	if len(path) > 0 {
		keyword = path[len(path)-1]
	}
	return keyword, ek.LocalizedString(printer)
}

// ratText trims a fixed-point decimal to its shortest form.
func ratText(s string) string {
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return s
}

func jsonText(v any) string {
	text, err := canonicalText(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return text
}
