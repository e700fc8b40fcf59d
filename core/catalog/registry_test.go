package catalog_test

import (
	"slices"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/port"
)

var _ = Describe("Registry (CONTRACTS §8.3)", func() {
	It("starts with the bootstrap tools active, sorted, with their model definitions", func() {
		r := fullRegistry()
		Expect(r.ActiveIDs()).To(Equal(bootstrap))
		Expect(ids(r.ActiveDescriptors())).To(Equal(bootstrap))
		defs := r.Definitions()
		Expect(defs).To(HaveLen(13))
		read := tool("workspace.read")
		Expect(defs).To(ContainElement(port.ToolDefinition{Type: "function", Function: port.FunctionSpec{
			Name: "read_file", Description: read.Description, Parameters: read.InputSchema,
		}}))
		ids := r.CanonicalToolIDs()
		Expect(ids).To(HaveLen(13))
		Expect(ids).To(HaveKeyWithValue("read_file", "workspace.read"))
		Expect(ids).NotTo(HaveKey("manage_session"))
	})

	It("routes only active model names but resolves any snapshot ID", func() {
		r := fullRegistry()
		_, ok := r.ResolveModelName("manage_session")
		Expect(ok).To(BeFalse())
		d, ok := r.ResolveCanonicalID("command.session")
		Expect(ok).To(BeTrue())
		Expect(d.ModelName).To(Equal("manage_session"))
		_, ok = r.ResolveCanonicalID("nope.tool")
		Expect(ok).To(BeFalse())
		_, ok = r.ResolveModelName("command.session")
		Expect(ok).To(BeFalse())
		Expect(r.Activate("command.session")).To(BeTrue())
		d, ok = r.ResolveModelName("manage_session")
		Expect(ok).To(BeTrue())
		Expect(d.ID).To(Equal("command.session"))
	})

	It("looks a model name up with the answer ResolveModelName gives, before and after activation", func() {
		r := fullRegistry()
		names := []string{"nope", "READ_FILE", "workspace.read"}
		for _, id := range catalog.IDs() {
			d, _ := r.ResolveCanonicalID(id)
			names = append(names, d.ModelName)
		}
		same := func() {
			for _, name := range names {
				want, wantOK := r.ResolveModelName(name)
				got, ok := r.LookupModelName(name)
				Expect(ok).To(Equal(wantOK), name)
				Expect(got).To(Equal(want), name)
			}
		}
		same()
		Expect(r.Activate("command.session")).To(BeTrue())
		d, ok := r.LookupModelName("manage_session")
		Expect(ok).To(BeTrue())
		Expect(d.ID).To(Equal("command.session"))
		same()
	})

	It("changes the active hash, not the catalog hash, when a lazy tool is activated", func() {
		r := fullRegistry()
		before, catalogHash := r.ActiveHash(), r.CatalogHash()
		Expect(before).To(MatchRegexp(`^sha256:[a-f0-9]{64}$`))
		Expect(r.Activate("workspace.read")).To(BeTrue()) // already active
		Expect(r.ActiveHash()).To(Equal(before))
		Expect(r.Activate("command.session")).To(BeTrue())
		Expect(r.ActiveHash()).NotTo(Equal(before))
		Expect(r.CatalogHash()).To(Equal(catalogHash))
		Expect(r.Snapshot().CatalogHash).To(Equal(catalogHash))
		as := r.ActiveSnapshot()
		Expect(as.Hash).To(Equal(r.ActiveHash()))
		Expect(as.CatalogHash).To(Equal(catalogHash))
		Expect(ids(as.Descriptors)).To(ContainElement("command.session"))
	})

	It("refuses to activate a tool outside the snapshot", func() {
		opts := fullOptions("review_only")
		s, err := catalog.NewSnapshot(opts)
		Expect(err).NotTo(HaveOccurred())
		r, err := catalog.NewRegistry(s)
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Activate("command.session")).To(BeFalse())
		Expect(r.Activate("nope.tool")).To(BeFalse())
	})

	It("fits the whole catalog within the definition budget", func() {
		r := fullRegistry()
		for _, id := range catalog.IDs() {
			Expect(r.Activate(id)).To(BeTrue(), id)
		}
		Expect(catalog.EstimateDefinitionTokens(r.Definitions())).To(BeNumerically("<=", catalog.DefinitionBudget))
	})

	Describe("the definition budget", func() {
		// big returns a lazy tool whose description alone takes about n/4 tokens
		// more than the description limit would allow in the registry document,
		// so its schema carries the weight instead.
		big := func(id, name string, enabled bool, tokens int) catalog.Descriptor {
			d := tool("user.ask")
			d.ID, d.ModelName, d.EnabledByDefault = id, name, enabled
			d.InputSchema = map[string]any{"type": "object", "description": strings.Repeat("x", tokens*4)}
			return d
		}
		build := func(ds ...catalog.Descriptor) (*catalog.Registry, error) {
			var available []string
			for _, d := range ds {
				available = append(available, d.ID)
			}
			s, err := catalog.NewSnapshot(catalog.Options{Descriptors: ds, AvailableToolIDs: available, GrantedPermissions: allPermissions})
			Expect(err).NotTo(HaveOccurred())
			return catalog.NewRegistry(s)
		}

		It("rejects a registry whose bootstrap definitions exceed it", func() {
			_, err := build(big("huge.tool", "huge_tool", true, 10001))
			var be *catalog.BudgetError
			Expect(err).To(BeAssignableToTypeOf(be))
			Expect(err).To(MatchError(MatchRegexp(`^active tool definitions exceed the budget: 10\d\d\d/10000 tokens$`)))
		})

		It("leaves a tool inactive when activating it would exceed the budget", func() {
			r, err := build(big("first.tool", "first_tool", true, 6000), big("second.tool", "second_tool", false, 6000))
			Expect(err).NotTo(HaveOccurred())
			before := r.ActiveHash()
			Expect(r.Activate("second.tool")).To(BeFalse())
			Expect(r.ActiveIDs()).To(Equal([]string{"first.tool"}))
			Expect(r.ActiveHash()).To(Equal(before))
			res := r.Search(catalog.SearchRequest{Query: "second_tool"})
			Expect(res.Activated).To(BeEmpty())
			Expect(res.Matches).To(Equal([]catalog.SearchMatch{{ID: "second.tool", ModelName: "second_tool", Title: "Ask user", Category: "communication", Active: false}}))
		})

		It("estimates tokens as a quarter of the UTF-16 length, rounded up", func() {
			defs := []port.ToolDefinition{{Type: "function", Function: port.FunctionSpec{Name: "a", Description: "<&>😀", Parameters: map[string]any{}}}}
			// [{"type":"function","function":{"name":"a","description":"<&>😀","parameters":{}}}]
			// is 83 UTF-16 units: <, > and & are not escaped; the emoji counts 2.
			Expect(catalog.EstimateDefinitionTokens(defs)).To(Equal(21))
			Expect(catalog.EstimateDefinitionTokens(nil)).To(Equal(1))
		})
	})

	Describe("Restore", func() {
		It("re-activates a checkpointed tool set and checks its hash", func() {
			src := fullRegistry()
			src.Activate("command.session")
			src.Activate("user.ask")
			var names []string
			for _, d := range src.ActiveDescriptors() {
				names = append(names, d.ModelName)
			}
			dst := fullRegistry()
			Expect(dst.Restore(names, src.ActiveHash())).To(Succeed())
			Expect(dst.ActiveHash()).To(Equal(src.ActiveHash()))
		})
		It("names an unknown tool", func() {
			Expect(fullRegistry().Restore([]string{"read_file", "nope"}, "x")).To(MatchError(`restore tool set: tool "nope" is not in the snapshot`))
		})
		It("rejects a hash mismatch", func() {
			r := fullRegistry()
			Expect(r.Restore([]string{"ask_user"}, "sha256:00")).To(MatchError(HavePrefix(`restore tool set: active hash "sha256:`)))
		})
	})
})

var _ = Describe("Search (CONTRACTS §8.4)", func() {
	It("finds Git by category and reports the already-active tool as activated (DECISIONS 34)", func() {
		r := fullRegistry()
		before := r.ActiveHash()
		res := r.Search(catalog.SearchRequest{Query: "final git diff", Category: "git", Limit: 5})
		Expect(res.Matches).To(Equal([]catalog.SearchMatch{{ID: "git.exec", ModelName: "git_operation", Title: "Inspect Git", Category: "git", Active: true}}))
		Expect(res.Activated).To(Equal([]string{"git.exec"}))
		Expect(res.NextCursor).To(BeEmpty())
		Expect(res.CatalogHash).To(Equal(r.CatalogHash()))
		Expect(res.ActiveHash).To(Equal(before))
	})

	It("activates the lazy tools on the page and reports the new active hash", func() {
		r := fullRegistry()
		before := r.ActiveHash()
		res := r.Search(catalog.SearchRequest{Query: "artifact"})
		Expect(res.Activated).To(ContainElements("artifact.create", "artifact.list", "artifact.read"))
		for _, m := range res.Matches {
			Expect(m.Active).To(BeTrue())
		}
		Expect(res.ActiveHash).To(Equal(r.ActiveHash()))
		Expect(res.ActiveHash).NotTo(Equal(before))
	})

	It("ranks by the number of matching terms, then by ID", func() {
		res := fullRegistry().Search(catalog.SearchRequest{Query: "ARTIFACT create", Limit: 20})
		Expect(res.Matches[0].ID).To(Equal("artifact.create"))
		for _, m := range res.Matches[1:] {
			Expect(m.ID).NotTo(Equal("artifact.create"))
		}
		rest := ids2(res.Matches[1:])
		Expect(slices.IsSorted(rest)).To(BeTrue())
	})

	It("returns nothing, activates nothing and keeps the hash for a query with no match", func() {
		r := fullRegistry()
		before := r.ActiveHash()
		for range 2 {
			res := r.Search(catalog.SearchRequest{Query: "kubernetes"})
			Expect(res.Matches).To(BeEmpty())
			Expect(res.Matches).NotTo(BeNil())
			Expect(res.Activated).To(BeEmpty())
			Expect(res.Activated).NotTo(BeNil())
			Expect(res.ActiveHash).To(Equal(before))
		}
		Expect(r.Search(catalog.SearchRequest{Query: "git", Category: "preview"}).Matches).To(BeEmpty())
	})

	It("lists every candidate for an empty query, page by page", func() {
		r := fullRegistry()
		var seen []string
		cursor := ""
		for page := 0; ; page++ {
			res := r.Search(catalog.SearchRequest{Cursor: cursor})
			Expect(len(res.Matches)).To(BeNumerically("<=", 5))
			for _, m := range res.Matches {
				seen = append(seen, m.ID)
			}
			if res.NextCursor == "" {
				break
			}
			Expect(res.NextCursor).To(Equal("offset:" + strconv.Itoa(len(seen))))
			cursor = res.NextCursor
		}
		Expect(seen).To(Equal(catalog.IDs()))
		Expect(r.ActiveIDs()).To(Equal(catalog.IDs()))
	})

	DescribeTable("clamps the page size to 1..20",
		func(limit, want int) {
			Expect(fullRegistry().Search(catalog.SearchRequest{Limit: limit}).Matches).To(HaveLen(want))
		},
		Entry("default", 0, 5),
		Entry("negative", -3, 1),
		Entry("one", 1, 1),
		Entry("twenty", 20, 20),
		Entry("above twenty", 50, 20),
	)

	DescribeTable("reads the cursor",
		func(cursor, first string, next string) {
			res := fullRegistry().Search(catalog.SearchRequest{Cursor: cursor, Limit: 2})
			if first == "" {
				Expect(res.Matches).To(BeEmpty())
			} else {
				Expect(res.Matches[0].ID).To(Equal(first))
			}
			Expect(res.NextCursor).To(Equal(next))
		},
		Entry("absent", "", "artifact.create", "offset:2"),
		Entry("an offset", "offset:4", "command.run", "offset:6"),
		Entry("leading zeros", "offset:004", "command.run", "offset:6"),
		Entry("the last page", "offset:20", "workspace.write", ""),
		Entry("past the end", "offset:21", "", ""),
		Entry("too large for an int", "offset:99999999999999999999999", "", ""),
		Entry("malformed, read as 0", "page:4", "artifact.create", "offset:2"),
		Entry("negative, read as 0", "offset:-1", "artifact.create", "offset:2"),
	)

	It("searches only the filtered catalog", func() {
		s, err := catalog.NewSnapshot(fullOptions("review_only"))
		Expect(err).NotTo(HaveOccurred())
		r, err := catalog.NewRegistry(s)
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Search(catalog.SearchRequest{Query: "session"}).Matches).To(BeEmpty())
	})
})

func ids2(ms []catalog.SearchMatch) []string {
	out := []string{}
	for _, m := range ms {
		out = append(out, m.ID)
	}
	return out
}
