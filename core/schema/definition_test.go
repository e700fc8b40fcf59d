package schema_test

import (
	"math"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/schema"
)

type obj = map[string]any

var _ = Describe("CheckDefinition", func() {
	It("accepts a schema using every supported keyword", func() {
		s := obj{
			"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "urn:x", "title": "t", "description": "d",
			"type": "object", "additionalProperties": false, "required": []any{"a", "b"},
			"$defs": obj{"name": obj{"type": "string", "minLength": 1, "maxLength": 8, "pattern": "^[a-z]+$"}},
			"properties": obj{
				"a": obj{"$ref": "#/$defs/name"},
				"b": obj{"type": "array", "items": obj{"type": "integer", "minimum": 0, "maximum": 9}, "minItems": 0, "maxItems": 3, "uniqueItems": true},
				"c": obj{"enum": []any{"x", "y"}, "default": "x"},
				"d": obj{"oneOf": []any{obj{"const": "k"}, obj{"type": "null"}}},
				"e": obj{"type": "object", "additionalProperties": obj{"type": "boolean"}},
				"f": obj{"$ref": "#"},
			},
		}
		Expect(schema.CheckDefinition(s)).To(BeEmpty())
	})

	It("rejects a nil schema", func() {
		Expect(schema.CheckDefinition(nil)).To(Equal([]string{"#: a schema must be a JSON object"}))
	})

	DescribeTable("reports each rule of CONTRACTS §5.2 with its location",
		func(s obj, want ...string) {
			Expect(schema.CheckDefinition(s)).To(Equal(want))
		},
		Entry("unknown keyword", obj{"type": "string", "madeUpKeyword": true},
			`#: unsupported keyword "madeUpKeyword"`),
		Entry("unknown keywords in sorted order", obj{"zeta": 1, "format": "uri"},
			`#: unsupported keyword "format"`, `#: unsupported keyword "zeta"`),
		Entry("unknown type name", obj{"type": "text"},
			`#: "type" must be one of array, boolean, integer, null, number, object, string`),
		Entry("type array", obj{"type": []any{"string", "null"}},
			`#: "type" must be one of array, boolean, integer, null, number, object, string`),
		Entry("non-local $ref", obj{"$ref": "https://example.com/s.json"},
			`#: "$ref" must be a local reference starting with "#"`),
		Entry("non-string $ref", obj{"$ref": 3},
			`#: "$ref" must be a local reference starting with "#"`),
		Entry("unresolved $ref", obj{"$ref": "#/$defs/missing"},
			`#: "$ref" "#/$defs/missing" does not resolve to a schema in this document`),
		Entry("$ref to a non-object", obj{"$ref": "#/title", "title": "x"},
			`#: "$ref" "#/title" does not resolve to a schema in this document`),
		Entry("$ref through an array", obj{"oneOf": []any{obj{"type": "null"}}, "$ref": "#/oneOf/0"},
			`#: "$ref" "#/oneOf/0" does not resolve to a schema in this document`),
		Entry("non-string pattern", obj{"pattern": 7},
			`#: "pattern" must be a string`),
		Entry("pattern that does not compile", obj{"type": "string", "pattern": "["},
			"#: \"pattern\" is not a valid regular expression: pattern \"[\" does not compile: error parsing regexp: missing closing ]: `[`"),
		Entry("pattern RE2 cannot compile (lookahead)", obj{"pattern": "^(?!a)"},
			"#: \"pattern\" is not a valid regular expression: pattern \"^(?!a)\" does not compile: error parsing regexp: invalid or unsupported Perl syntax: `(?!`"),
		Entry("empty enum", obj{"enum": []any{}},
			`#: "enum" must be a non-empty array`),
		Entry("non-array enum", obj{"enum": "a"},
			`#: "enum" must be a non-empty array`),
		Entry("duplicate enum values", obj{"enum": []any{"a", 1, "a"}},
			`#: "enum" repeats the value "a"`),
		Entry("duplicate enum values by canonical text", obj{"enum": []any{obj{"a": 1, "b": 2}, obj{"b": 2, "a": 1.0}}},
			`#: "enum" repeats the value {"a":1,"b":2}`),
		Entry("empty oneOf", obj{"oneOf": []any{}},
			`#: "oneOf" must be a non-empty array of schemas`),
		Entry("non-array required", obj{"required": "a"},
			`#: "required" must be an array`),
		Entry("blank required name", obj{"required": []any{""}},
			`#: "required" must hold non-empty strings only`),
		Entry("non-string required name", obj{"required": []any{3}},
			`#: "required" must hold non-empty strings only`),
		Entry("duplicate required name", obj{"required": []any{"a", "a"}},
			`#: "required" repeats the name "a"`),
		Entry("undeclared required name", obj{"properties": obj{"a": obj{}}, "required": []any{"a", "b"}},
			`#: "required" names "b", which "properties" does not declare`),
		Entry("bad additionalProperties", obj{"additionalProperties": "no"},
			`#: "additionalProperties" must be a boolean or a schema`),
		Entry("bad uniqueItems", obj{"uniqueItems": "yes"},
			`#: "uniqueItems" must be a boolean`),
		Entry("negative minLength", obj{"minLength": -1},
			`#: "minLength" must be a non-negative integer`),
		Entry("fractional maxLength", obj{"maxLength": 1.5},
			`#: "maxLength" must be a non-negative integer`),
		Entry("string minItems", obj{"minItems": "1"},
			`#: "minItems" must be a non-negative integer`),
		Entry("negative maxItems", obj{"maxItems": -2},
			`#: "maxItems" must be a non-negative integer`),
		Entry("minLength above maxLength", obj{"minLength": 5, "maxLength": 4},
			`#: "minLength" is greater than "maxLength"`),
		Entry("minItems above maxItems", obj{"minItems": 5, "maxItems": 4},
			`#: "minItems" is greater than "maxItems"`),
		Entry("non-numeric minimum", obj{"minimum": "0"},
			`#: "minimum" must be a finite number`),
		Entry("infinite maximum", obj{"maximum": math.Inf(1)},
			`#: "maximum" must be a finite number`),
		Entry("minimum above maximum", obj{"minimum": 2, "maximum": 1.5},
			`#: "minimum" is greater than "maximum"`),
		Entry("non-object properties", obj{"properties": []any{}},
			`#: "properties" must be an object`),
		Entry("non-object $defs", obj{"$defs": 1},
			`#: "$defs" must be an object`),
	)

	DescribeTable("recurses into every subschema position",
		func(s obj, want string) {
			Expect(schema.CheckDefinition(s)).To(Equal([]string{want}))
		},
		Entry("items", obj{"items": obj{"bad": 1}}, `#/items: unsupported keyword "bad"`),
		Entry("non-object items", obj{"items": true}, `#/items: a schema must be a JSON object`),
		Entry("oneOf branch", obj{"oneOf": []any{obj{}, obj{"type": 1}}}, `#/oneOf/1: "type" must be one of array, boolean, integer, null, number, object, string`),
		Entry("additionalProperties schema", obj{"additionalProperties": obj{"minimum": "x"}}, `#/additionalProperties: "minimum" must be a finite number`),
		Entry("properties with pointer escaping", obj{"properties": obj{"a/b~c": obj{"enum": []any{}}}}, `#/properties/a~1b~0c: "enum" must be a non-empty array`),
		Entry("$defs", obj{"$defs": obj{"x": obj{"required": []any{"q"}, "properties": obj{}}}}, `#/$defs/x: "required" names "q", which "properties" does not declare`),
		Entry("$ref resolved from the root", obj{"properties": obj{"a": obj{"$ref": "#/$defs/n"}}}, `#/properties/a: "$ref" "#/$defs/n" does not resolve to a schema in this document`),
	)

	It("decodes ~0 and ~1 in $ref pointers", func() {
		s := obj{"$defs": obj{"a/b~c": obj{"type": "string"}}, "$ref": "#/$defs/a~1b~0c"}
		Expect(schema.CheckDefinition(s)).To(BeEmpty())
	})

	It("reports several problems of one node in a fixed order", func() {
		s := obj{"type": "text", "minimum": 3, "maximum": 1, "enum": []any{}, "bogus": true}
		Expect(schema.CheckDefinition(s)).To(Equal([]string{
			`#: unsupported keyword "bogus"`,
			`#: "type" must be one of array, boolean, integer, null, number, object, string`,
			`#: "enum" must be a non-empty array`,
			`#: "minimum" is greater than "maximum"`,
		}))
	})

	It("accepts the workspace-path pattern although RE2 cannot compile it", func() {
		Expect(schema.CheckDefinition(obj{"type": "string", "pattern": schema.WorkspacePathPattern})).To(BeEmpty())
	})

	It("lists the supported keywords and types of CONTRACTS §5.1", func() {
		Expect(schema.Keywords()).To(HaveLen(23))
		Expect(schema.Keywords()).To(ContainElements("$defs", "oneOf", "uniqueItems"))
		Expect(schema.Types()).To(Equal([]string{"array", "boolean", "integer", "null", "number", "object", "string"}))
	})
})
