package catalog_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/schema"
)

// arraySchemas returns every array schema under s by JSON pointer.
func arraySchemas(s map[string]any, at string, out map[string]map[string]any) {
	if s["type"] == "array" {
		out[at] = s
	}
	for _, key := range []string{"properties", "$defs"} {
		if props, ok := s[key].(map[string]any); ok {
			for name, sub := range props {
				if m, ok := sub.(map[string]any); ok {
					arraySchemas(m, at+"/"+key+"/"+name, out)
				}
			}
		}
	}
	if items, ok := s["items"].(map[string]any); ok {
		arraySchemas(items, at+"/items", out)
	}
	for _, key := range []string{"oneOf", "anyOf", "allOf"} {
		if alts, ok := s[key].([]any); ok {
			for i, alt := range alts {
				if m, ok := alt.(map[string]any); ok {
					arraySchemas(m, fmt.Sprintf("%s/%s/%d", at, key, i), out)
				}
			}
		}
	}
}

// strings of n copies of "x".
func xs(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = "x"
	}
	return out
}

var _ = Describe("array fragments (CONTRACTS §6.1)", func() {
	It("bound every array of every schema, from 0 unless a tool says otherwise", func() {
		found := 0
		for _, id := range catalog.IDs() {
			d := tool(id)
			for side, s := range map[string]map[string]any{"input": d.InputSchema, "output": d.OutputSchema} {
				arrays := map[string]map[string]any{}
				arraySchemas(s, "#", arrays)
				for at, a := range arrays {
					found++
					where := id + " " + side + " " + at
					Expect(a).To(HaveKeyWithValue("minItems", BeNumerically(">=", 0)), where)
					Expect(a).To(HaveKeyWithValue("maxItems", BeNumerically(">=", a["minItems"])), where)
				}
			}
		}
		Expect(found).To(BeNumerically(">", 20), "the walk reaches the arrays")
	})

	DescribeTable("defaults to 0..200 items where CONTRACTS §6.3 gives no other bound: 200 pass, 201 fail",
		func(id, field string, doc func(items []any) map[string]any) {
			out := tool(id).OutputSchema
			prop := out["properties"].(map[string]any)[field].(map[string]any)
			Expect(prop).To(HaveKeyWithValue("minItems", 0))
			Expect(prop).To(HaveKeyWithValue("maxItems", 200))
			Expect(schema.Validate(out, doc([]any{}))).To(Succeed())
			Expect(schema.Validate(out, doc(xs(200)))).To(Succeed())
			Expect(schema.Validate(out, doc(xs(201)))).To(MatchError(ContainSubstring("/" + field + ": ")))
		},
		Entry("workspace.list entries", "workspace.list", "entries", func(items []any) map[string]any {
			for i := range items {
				items[i] = map[string]any{"path": fmt.Sprintf("f%d", i), "name": fmt.Sprintf("f%d", i), "kind": "file"}
			}
			return map[string]any{"entries": items, "truncated": false}
		}),
		Entry("workspace.glob matches", "workspace.glob", "matches", func(items []any) map[string]any {
			return map[string]any{"matches": items, "truncated": false}
		}),
		Entry("perception.analyze observations", "perception.analyze", "observations", func(items []any) map[string]any {
			return map[string]any{"artifactId": "a", "mode": "ocr", "observations": items, "analyzer": "fixture",
				"provenance": map[string]any{"source": "fixture", "trust": "untrusted_tool_output"}}
		}),
	)
})
