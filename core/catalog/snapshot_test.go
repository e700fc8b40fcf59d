package catalog_test

import (
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/port"
)

func snapshot(opts catalog.Options) catalog.Snapshot {
	GinkgoHelper()
	s, err := catalog.NewSnapshot(opts)
	Expect(err).NotTo(HaveOccurred())
	return s
}

func reasonOf(s catalog.Snapshot, id string) string {
	for _, d := range s.Diagnostics {
		if d.ToolID == id {
			return d.Reason
		}
	}
	return ""
}

var _ = Describe("NewSnapshot (CONTRACTS §8.1)", func() {
	It("includes every tool when everything is granted and available", func() {
		s := snapshot(fullOptions(""))
		Expect(ids(s.Descriptors)).To(Equal(catalog.IDs()))
		Expect(s.Mode).To(Equal("auto"))
		Expect(s.SchemaVersion).To(Equal("2.0.0"))
		Expect(s.CatalogHash).To(MatchRegexp(`^sha256:[a-f0-9]{64}$`))
		Expect(s.Hash).To(Equal(s.CatalogHash))
		Expect(s.Diagnostics).To(HaveLen(21))
		for _, d := range s.Diagnostics {
			Expect(d).To(Equal(catalog.Diagnostic{Included: true, Reason: "available", ToolID: d.ToolID}))
		}
	})

	Describe("the mode filter (CONTRACTS §3.1 and its audit correction)", func() {
		It("keeps every tool in auto, scaffold and refactor", func() {
			for _, m := range []string{"auto", "scaffold", "refactor"} {
				Expect(snapshot(fullOptions(m)).Descriptors).To(HaveLen(21), m)
			}
		})

		It("keeps read tools and the two research tools in review_only", func() {
			s := snapshot(fullOptions("review_only"))
			Expect(ids(s.Descriptors)).To(Equal([]string{
				"artifact.list", "artifact.read", "catalog.search", "git.exec", "perception.analyze", "project.detect",
				"research.fetch", "research.search", "user.ask", "workspace.glob", "workspace.grep", "workspace.list", "workspace.read",
			}))
			for _, id := range []string{"task.checkpoint", "artifact.create", "workspace.edit", "workspace.write", "command.run", "command.session", "preview.manage", "project.validate"} {
				Expect(reasonOf(s, id)).To(Equal("run_mode_denied:review_only"), id)
			}
		})

		It("keeps read tools and project.validate in validate_only", func() {
			s := snapshot(fullOptions("validate_only"))
			Expect(ids(s.Descriptors)).To(Equal([]string{
				"artifact.list", "artifact.read", "catalog.search", "git.exec", "perception.analyze", "project.detect",
				"project.validate", "user.ask", "workspace.glob", "workspace.grep", "workspace.list", "workspace.read",
			}))
			for _, id := range []string{"research.fetch", "research.search", "task.checkpoint", "command.run"} {
				Expect(reasonOf(s, id)).To(Equal("run_mode_denied:validate_only"), id)
			}
		})

		It("decides per descriptor with AllowedInMode", func() {
			Expect(catalog.AllowedInMode(tool("research.search"), "review_only")).To(BeTrue())
			Expect(catalog.AllowedInMode(tool("research.search"), "validate_only")).To(BeFalse())
			Expect(catalog.AllowedInMode(tool("project.validate"), "review_only")).To(BeFalse())
			Expect(catalog.AllowedInMode(tool("project.validate"), "validate_only")).To(BeTrue())
			Expect(catalog.AllowedInMode(tool("workspace.write"), "refactor")).To(BeTrue())
		})
	})

	It("names the first permission a tool lacks, in the tool's own order", func() {
		opts := fullOptions("auto")
		opts.GrantedPermissions = []string{"fs.workspace"}
		s := snapshot(opts)
		Expect(reasonOf(s, "preview.manage")).To(Equal("missing_permission:preview.local"))
		Expect(reasonOf(s, "project.validate")).To(Equal("missing_permission:process.execute"))
		Expect(reasonOf(s, "catalog.search")).To(Equal("available"))
	})

	It("puts the mode before permissions and permissions before availability", func() {
		s := snapshot(catalog.Options{Mode: "review_only"})
		Expect(reasonOf(s, "workspace.write")).To(Equal("run_mode_denied:review_only"))
		Expect(reasonOf(s, "workspace.read")).To(Equal("missing_permission:fs.workspace"))
		Expect(reasonOf(s, "catalog.search")).To(Equal("adapter_unavailable"))
		Expect(s.Descriptors).To(BeEmpty())
	})

	It("drops git.exec when the host adapter cannot serve it", func() {
		opts := fullOptions("auto")
		opts.AvailableToolIDs = slices.DeleteFunc(catalog.IDs(), func(id string) bool { return id == "git.exec" })
		s := snapshot(opts)
		Expect(reasonOf(s, "git.exec")).To(Equal("adapter_unavailable"))
		r, err := catalog.NewRegistry(s)
		Expect(err).NotTo(HaveOccurred())
		_, ok := r.ResolveModelName("git_operation")
		Expect(ok).To(BeFalse())
		_, ok = fullRegistry().ResolveModelName("git_operation")
		Expect(ok).To(BeTrue())
	})

	DescribeTable("checks required model capabilities (DECISIONS 43)",
		func(required string, caps port.ModelCapabilities, want string) {
			d := tool("perception.analyze")
			d.Modalities.RequiredModelCapabilities = []string{required}
			s := snapshot(catalog.Options{Descriptors: []catalog.Descriptor{d}, AvailableToolIDs: []string{d.ID}, GrantedPermissions: allPermissions, Capabilities: caps})
			Expect(reasonOf(s, d.ID)).To(Equal(want))
		},
		Entry("image input supported", "input.image", capabilities("supported", "", ""), "available"),
		Entry("image input unknown", "input.image", capabilities("unknown", "", ""), "model_capability_mismatch:input.image"),
		Entry("tool calling supported", "tools", capabilities("", "", "supported"), "available"),
		Entry("tool calling unsupported", "tools", capabilities("", "", "unsupported"), "model_capability_mismatch:tools"),
		Entry("thinking never reads as supported", "thinking", capabilities("", "optional", ""), "model_capability_mismatch:thinking"),
		Entry("an unknown name always fails", "audio", capabilities("supported", "required", "supported"), "model_capability_mismatch:audio"),
	)

	It("hashes the mode and the included tools", func() {
		auto := snapshot(fullOptions("auto"))
		Expect(snapshot(fullOptions("scaffold")).CatalogHash).NotTo(Equal(auto.CatalogHash))
		opts := fullOptions("auto")
		opts.AvailableToolIDs = catalog.IDs()[1:]
		Expect(snapshot(opts).CatalogHash).NotTo(Equal(auto.CatalogHash))
		Expect(snapshot(fullOptions("auto")).CatalogHash).To(Equal(auto.CatalogHash))
	})

	It("does not depend on the order of descriptors, available IDs or permissions", func() {
		opts := fullOptions("auto")
		reversed := fullOptions("auto")
		reversed.Descriptors = catalog.Core()
		slices.Reverse(reversed.Descriptors)
		slices.Reverse(reversed.AvailableToolIDs)
		reversed.GrantedPermissions = slices.Clone(allPermissions)
		slices.Reverse(reversed.GrantedPermissions)
		Expect(snapshot(reversed)).To(Equal(snapshot(opts)))
	})
})
