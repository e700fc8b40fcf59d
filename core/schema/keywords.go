package schema

import "slices"

var keywords = []string{
	"$defs", "$id", "$ref", "$schema", "additionalProperties", "const",
	"default", "description", "enum", "items", "maxItems", "maxLength",
	"maximum", "minItems", "minLength", "minimum", "oneOf", "pattern",
	"properties", "required", "title", "type", "uniqueItems",
}

var types = []string{"array", "boolean", "integer", "null", "number", "object", "string"}

// Keywords returns the supported keywords of the subset (CONTRACTS §5.1) in
// sorted order. A schema node with any other keyword is not a valid
// definition.
func Keywords() []string { return slices.Clone(keywords) }

// Types returns the values "type" may take, in sorted order. Type arrays
// are not supported.
func Types() []string { return slices.Clone(types) }

func isKeyword(k string) bool { return slices.Contains(keywords, k) }

func isType(t string) bool { return slices.Contains(types, t) }
