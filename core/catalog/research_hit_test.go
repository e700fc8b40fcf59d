package catalog_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/schema"
)

var _ = Describe("the RESEARCH_HIT fragment (CONTRACTS §6.1) in research.search outputs", func() {
	prov := map[string]any{"source": "search", "trust": "untrusted_external"}
	hit := func(change func(h map[string]any)) map[string]any {
		h := map[string]any{"title": "Node.js docs", "url": "https://nodejs.org/api", "snippet": "", "provider": "fixture", "provenance": prov}
		if change != nil {
			change(h)
		}
		return map[string]any{"results": []any{h}, "truncated": false, "provenance": prov}
	}

	It("accepts a hit with the required members, and one with only those", func() {
		out := tool("research.search").OutputSchema
		Expect(schema.Validate(out, hit(nil))).To(Succeed())
		Expect(schema.Validate(out, hit(func(h map[string]any) { delete(h, "snippet"); delete(h, "provider") }))).To(Succeed())
	})

	DescribeTable("rejects a hit that breaks the fragment",
		func(change func(h map[string]any), where string) {
			Expect(schema.Validate(tool("research.search").OutputSchema, hit(change))).To(MatchError(ContainSubstring("/results/0" + where)))
		},
		Entry("no title", func(h map[string]any) { delete(h, "title") }, "/title: is required"),
		Entry("an empty title", func(h map[string]any) { h["title"] = "" }, "/title: "),
		Entry("no url", func(h map[string]any) { delete(h, "url") }, "/url: is required"),
		Entry("an empty url", func(h map[string]any) { h["url"] = "" }, "/url: "),
		Entry("no provenance", func(h map[string]any) { delete(h, "provenance") }, "/provenance: is required"),
		Entry("a provenance without trust", func(h map[string]any) { h["provenance"] = map[string]any{"source": "search"} }, "/provenance/trust: is required"),
		Entry("a numeric snippet", func(h map[string]any) { h["snippet"] = 3 }, "/snippet: "),
		Entry("an unknown member", func(h map[string]any) { h["score"] = 1 }, ""),
	)
})
