package schema_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/schema"
)

// violationsOf validates and returns the violations, failing when the
// result is not a *ValueError.
func violationsOf(s obj, value any) []schema.Violation {
	GinkgoHelper()
	err := schema.Validate(s, value)
	var ve *schema.ValueError
	Expect(errors.As(err, &ve)).To(BeTrue(), "want a *ValueError, got %v", err)
	return ve.Violations
}

func v(pointer, keyword, message string) schema.Violation {
	return schema.Violation{Pointer: pointer, Keyword: keyword, Message: message}
}

func decode(text string) any {
	var out any
	Expect(json.Unmarshal([]byte(text), &out)).To(Succeed())
	return out
}

var _ = Describe("Validate", func() {
	object := obj{
		"type": "object", "additionalProperties": false, "required": []any{"value"},
		"properties": obj{"value": obj{"type": "integer"}},
	}

	It("accepts a valid value", func() {
		Expect(schema.Validate(object, obj{"value": 3})).To(Succeed())
	})

	It("reports a wrong type and an undeclared property with their pointers (original test)", func() {
		Expect(violationsOf(object, obj{"value": "wrong", "extra": true})).To(Equal([]schema.Violation{
			v("/extra", "additionalProperties", "is not a declared property"),
			v("/value", "type", "must be of type integer, got string"),
		}))
	})

	It("reports a missing required property at the pointer it would have", func() {
		Expect(violationsOf(object, obj{})).To(Equal([]schema.Violation{v("/value", "required", "is required")}))
	})

	It("formats the error with every violation", func() {
		err := schema.Validate(object, obj{"value": "wrong", "extra": true})
		Expect(err).To(MatchError(`value does not match the schema: /extra: is not a declared property; /value: must be of type integer, got string`))
		Expect(schema.Validate(obj{"type": "string"}, 1)).To(MatchError(`value does not match the schema: (root): must be of type string, got number`))
	})

	It("returns the definition problems for a schema outside the subset", func() {
		err := schema.Validate(obj{"type": "string", "madeUpKeyword": true}, "x")
		var de *schema.DefinitionError
		Expect(errors.As(err, &de)).To(BeTrue())
		Expect(de.Problems).To(Equal([]string{`#: unsupported keyword "madeUpKeyword"`}))
		Expect(err).To(MatchError(`schema is not in the supported subset: #: unsupported keyword "madeUpKeyword"`))
	})

	It("fails on a value that is not JSON", func() {
		Expect(schema.Validate(obj{}, make(chan int))).To(MatchError(ContainSubstring("schema: value is not JSON")))
	})

	Describe("types", func() {
		It("accepts an integral float as an integer", func() {
			Expect(schema.Validate(obj{"type": "integer"}, 3.0)).To(Succeed())
			Expect(schema.Validate(obj{"type": "integer"}, decode("3.0"))).To(Succeed())
			Expect(violationsOf(obj{"type": "integer"}, 3.5)).To(Equal([]schema.Violation{v("", "type", "must be of type integer, got number")}))
		})
		It("accepts integers as numbers", func() {
			Expect(schema.Validate(obj{"type": "number"}, 3)).To(Succeed())
		})
		It("does not take arrays or null for objects", func() {
			Expect(violationsOf(obj{"type": "object"}, []any{})).To(Equal([]schema.Violation{v("", "type", "must be of type object, got array")}))
			Expect(violationsOf(obj{"type": "object"}, nil)).To(Equal([]schema.Violation{v("", "type", "must be of type object, got null")}))
		})
	})

	Describe("string lengths", func() {
		s := obj{"type": "string", "minLength": 2, "maxLength": 3}
		It("counts UTF-16 code units, not bytes or runes", func() {
			// One emoji is one rune but two UTF-16 units: long enough.
			Expect(schema.Validate(s, "😀")).To(Succeed())
			// "éé" is four bytes but two units: short enough.
			Expect(schema.Validate(s, "ééé")).To(Succeed())
			Expect(violationsOf(s, "😀😀")).To(Equal([]schema.Violation{v("", "maxLength", "has 4 UTF-16 code units, more than the maximum 3")}))
			Expect(violationsOf(s, "a")).To(Equal([]schema.Violation{v("", "minLength", "has 1 UTF-16 code units, fewer than the minimum 2")}))
		})
	})

	Describe("patterns", func() {
		It("searches without anchoring", func() {
			Expect(schema.Validate(obj{"pattern": "b+"}, "abbc")).To(Succeed())
			Expect(violationsOf(obj{"pattern": "^https?://"}, "ftp://x")).To(Equal([]schema.Violation{v("", "pattern", `"ftp://x" does not match the pattern "^https?://"`)}))
		})
		It("accepts both hash forms of the HASH fragment", func() {
			hash := obj{"type": "string", "pattern": "^(sha256:)?[a-fA-F0-9]{64}$"}
			Expect(schema.Validate(hash, strings.Repeat("a", 64))).To(Succeed())
			Expect(schema.Validate(hash, "sha256:"+strings.Repeat("B", 64))).To(Succeed())
			Expect(schema.Validate(hash, strings.Repeat("a", 63))).NotTo(Succeed())
		})
		It("judges each pattern by its own text, however many patterns were compiled before", func() {
			// Compiled patterns are remembered by their text, a bounded number of them.
			for i := range 600 {
				p := fmt.Sprintf("^a{%d}$", i%300+1)
				Expect(schema.Validate(obj{"type": "string", "pattern": p}, strings.Repeat("a", i%300+1))).To(Succeed(), p)
				Expect(schema.Validate(obj{"type": "string", "pattern": p}, strings.Repeat("a", i%300+2))).NotTo(Succeed(), p)
				Expect(schema.CheckDefinition(obj{"type": "string", "pattern": fmt.Sprintf("a%d(", i)})).NotTo(BeEmpty())
			}
		})
	})

	It("checks numeric bounds inclusively", func() {
		s := obj{"type": "number", "minimum": 0.5, "maximum": 2}
		Expect(schema.Validate(s, 0.5)).To(Succeed())
		Expect(schema.Validate(s, 2)).To(Succeed())
		Expect(violationsOf(s, 0.25)).To(Equal([]schema.Violation{v("", "minimum", "0.25 is less than the minimum 0.5")}))
		Expect(violationsOf(s, 3)).To(Equal([]schema.Violation{v("", "maximum", "3 is greater than the maximum 2")}))
	})

	It("checks array bounds, unique items and item schemas", func() {
		s := obj{"type": "array", "minItems": 1, "maxItems": 3, "uniqueItems": true, "items": obj{"type": "string"}}
		Expect(schema.Validate(s, []any{"a", "b"})).To(Succeed())
		Expect(violationsOf(s, []any{})).To(Equal([]schema.Violation{v("", "minItems", "has 0 items, fewer than the minimum 1")}))
		Expect(violationsOf(s, []any{"a", "b", "c", "d"})).To(Equal([]schema.Violation{v("", "maxItems", "has 4 items, more than the maximum 3")}))
		Expect(violationsOf(s, []any{"a", "a"})).To(Equal([]schema.Violation{v("", "uniqueItems", "items 0 and 1 are equal")}))
		Expect(violationsOf(s, []any{"a", 2})).To(Equal([]schema.Violation{v("/1", "type", "must be of type string, got number")}))
	})

	It("validates undeclared properties against an additionalProperties schema", func() {
		s := obj{"type": "object", "properties": obj{}, "additionalProperties": obj{"type": "string"}}
		Expect(schema.Validate(s, obj{"A": "x"})).To(Succeed())
		Expect(violationsOf(s, obj{"A": 1})).To(Equal([]schema.Violation{v("/A", "type", "must be of type string, got number")}))
		Expect(schema.Validate(obj{"type": "object", "properties": obj{}}, obj{"any": 1})).To(Succeed())
	})

	It("escapes pointer tokens", func() {
		s := obj{"type": "object", "properties": obj{"a/b~c": obj{"type": "string"}}}
		Expect(violationsOf(s, obj{"a/b~c": 1})).To(Equal([]schema.Violation{v("/a~1b~0c", "type", "must be of type string, got number")}))
	})

	Describe("const and enum", func() {
		It("match primitives", func() {
			Expect(schema.Validate(obj{"const": "read"}, "read")).To(Succeed())
			Expect(violationsOf(obj{"const": "read"}, "save")).To(Equal([]schema.Violation{v("", "const", `must equal "read"`)}))
			Expect(schema.Validate(obj{"enum": []any{"a", 1}}, 1.0)).To(Succeed())
			Expect(violationsOf(obj{"enum": []any{"a", "b"}}, "c")).To(Equal([]schema.Violation{v("", "enum", `must be one of ["a","b"]`)}))
		})
		It("never match objects or arrays, as under Object.is", func() {
			Expect(schema.Validate(obj{"const": obj{"a": 1}}, obj{"a": 1})).NotTo(Succeed())
			Expect(schema.Validate(obj{"enum": []any{[]any{1}, "x"}}, []any{1})).NotTo(Succeed())
			Expect(schema.Validate(obj{"enum": []any{[]any{1}, "x"}}, "x")).To(Succeed())
		})
	})

	Describe("oneOf", func() {
		// The MUTATION_PRECONDITION fragment of CONTRACTS §6.1.
		hash := obj{"type": "string", "pattern": "^(sha256:)?[a-fA-F0-9]{64}$"}
		precondition := obj{"oneOf": []any{
			obj{"type": "object", "additionalProperties": false, "properties": obj{"kind": obj{"const": "must_not_exist"}}, "required": []any{"kind"}},
			obj{"type": "object", "additionalProperties": false, "properties": obj{"kind": obj{"const": "matches_sha256"}, "contentSha256": hash}, "required": []any{"kind", "contentSha256"}},
		}}
		It("needs exactly one matching branch", func() {
			Expect(schema.Validate(precondition, obj{"kind": "must_not_exist"})).To(Succeed())
			Expect(schema.Validate(precondition, obj{"kind": "matches_sha256", "contentSha256": strings.Repeat("a", 64)})).To(Succeed())
			Expect(violationsOf(precondition, obj{"kind": "matches_sha256"})).To(Equal([]schema.Violation{v("", "oneOf", `matches none of the "oneOf" schemas, want exactly one`)}))
		})
		It("rejects a value matching two branches", func() {
			Expect(violationsOf(obj{"oneOf": []any{obj{"type": "integer"}, obj{"type": "number"}}}, 1)).To(Equal([]schema.Violation{v("", "oneOf", `matches "oneOf" schemas 0 and 1, want exactly one`)}))
		})
	})

	Describe("$ref", func() {
		It("resolves local pointers into $defs", func() {
			s := obj{"$defs": obj{"n": obj{"type": "string", "minLength": 2}}, "type": "object", "properties": obj{"a": obj{"$ref": "#/$defs/n"}}}
			Expect(schema.Validate(s, obj{"a": "xy"})).To(Succeed())
			Expect(violationsOf(s, obj{"a": "x"})).To(Equal([]schema.Violation{v("/a", "minLength", "has 1 UTF-16 code units, fewer than the minimum 2")}))
		})
		It("ignores the siblings of $ref", func() {
			s := obj{"$defs": obj{"n": obj{"type": "string"}}, "type": "object", "properties": obj{"a": obj{"$ref": "#/$defs/n", "maxLength": 1}}}
			Expect(schema.Validate(s, obj{"a": "long"})).To(Succeed())
		})
		It("ignores $id, which would otherwise move the base of local references", func() {
			s := obj{"$defs": obj{"n": obj{"type": "string"}}, "properties": obj{"a": obj{"$id": "https://other.invalid/x.json", "properties": obj{"b": obj{"$ref": "#/$defs/n"}}}}}
			Expect(schema.Validate(s, obj{"a": obj{"b": "s"}})).To(Succeed())
			Expect(schema.Validate(s, obj{"a": obj{"b": 1}})).NotTo(Succeed())
		})
	})

	Describe("Validator", func() {
		It("compiles equal schemas once, whatever their key order or number types", func() {
			val := schema.NewValidator()
			Expect(val.Validate(obj{"type": "integer", "minimum": 1}, 2)).To(Succeed())
			Expect(val.Validate(decode(`{"minimum":1.0,"type":"integer"}`).(map[string]any), 3)).To(Succeed())
			Expect(schema.CacheSize(val)).To(Equal(1))
			Expect(val.Check(obj{"type": "string"})).To(Succeed())
			Expect(schema.CacheSize(val)).To(Equal(2))
		})
		It("does not cache invalid definitions", func() {
			val := schema.NewValidator()
			Expect(val.Check(obj{"bogus": true})).To(MatchError(ContainSubstring(`unsupported keyword "bogus"`)))
			Expect(schema.CacheSize(val)).To(Equal(0))
		})
	})
})
