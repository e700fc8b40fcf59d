package effects_test

import (
	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/internal/toolfacts"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("NewMetadata", func() {
	It("maps the 13 bootstrap tools and carries the full profile", func() {
		var active []effects.ToolRef
		for _, t := range toolfacts.All() {
			if t.EnabledByDefault {
				active = append(active, effects.ToolRef{ID: t.ID, ModelName: t.ModelName})
			}
		}
		meta, err := effects.NewMetadata(active)
		Expect(err).NotTo(HaveOccurred())
		Expect(meta.CanonicalToolIDs).To(HaveLen(13))
		Expect(meta.CanonicalToolIDs).To(HaveKeyWithValue("read_file", "workspace.read"))
		Expect(meta.CanonicalToolIDs).To(HaveKeyWithValue("git_operation", "git.exec"))
		Expect(meta.CanonicalToolIDs).NotTo(HaveKey("search_web"))
		Expect(meta.EffectCapabilities).To(Equal(effects.CoreProfile()))
	})

	It("keeps the effect capabilities equal when a lazy tool activates", func() {
		one, err := effects.NewMetadata([]effects.ToolRef{{ID: "workspace.read", ModelName: "read_file"}})
		Expect(err).NotTo(HaveOccurred())
		two, err := effects.NewMetadata([]effects.ToolRef{
			{ID: "workspace.read", ModelName: "read_file"}, {ID: "research.search", ModelName: "search_web"},
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(two.EffectCapabilities).To(Equal(one.EffectCapabilities))
		Expect(two.CanonicalToolIDs).To(HaveLen(2))
	})

	It("accepts no active tools", func() {
		meta, err := effects.NewMetadata(nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(meta.CanonicalToolIDs).To(BeEmpty())
		Expect(meta.EffectCapabilities).To(HaveLen(21))
	})

	DescribeTable("fails at the first problem in ID order",
		func(active []effects.ToolRef, msg string) {
			_, err := effects.NewMetadata(active)
			Expect(err).To(MatchError(msg))
		},
		Entry("a tool without a profile", []effects.ToolRef{{ID: "workspace.read", ModelName: "read_file"}, {ID: "mcp.x", ModelName: "x"}},
			"No core effect profile exists for mcp.x."),
		Entry("a repeated ID", []effects.ToolRef{{ID: "workspace.read", ModelName: "read_file"}, {ID: "workspace.read", ModelName: "read_again"}},
			"Duplicate active canonical tool ID: workspace.read."),
		Entry("a repeated model name", []effects.ToolRef{{ID: "workspace.write", ModelName: "read_file"}, {ID: "workspace.read", ModelName: "read_file"}},
			"Duplicate active model-facing tool name: read_file."),
		Entry("the unknown ID sorted first wins", []effects.ToolRef{{ID: "workspace.read", ModelName: "a"}, {ID: "workspace.read", ModelName: "b"}, {ID: "aaa.x", ModelName: "c"}},
			"No core effect profile exists for aaa.x."),
	)
})
