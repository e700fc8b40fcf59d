package catalog_test

import (
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/schema"
)

// valid returns a valid descriptor based on workspace.read under another ID.
func valid() catalog.Descriptor {
	d := tool("workspace.read")
	d.ID, d.ModelName = "workspace.peek", "peek_file"
	return d
}

var _ = Describe("descriptor checks (CONTRACTS §4.3)", func() {
	It("accepts every core descriptor", func() {
		Expect(catalog.CheckDescriptors(catalog.Core())).To(Succeed())
		Expect(catalog.CheckDescriptor(valid())).To(Succeed())
	})

	DescribeTable("rejects a broken descriptor with its reason",
		func(mutate func(*catalog.Descriptor), message string) {
			d := valid()
			mutate(&d)
			Expect(catalog.CheckDescriptor(d)).To(MatchError(message))
			// Registry construction rejects it too.
			_, err := catalog.NewSnapshot(catalog.Options{Descriptors: []catalog.Descriptor{d}})
			Expect(err).To(HaveOccurred())
		},
		Entry("ID without a dot", func(d *catalog.Descriptor) { d.ID = "workspace" },
			`tool ID "workspace" does not match ^[a-z][a-zA-Z0-9]*(\.[a-zA-Z0-9]+)+$`),
		Entry("ID with an upper-case start", func(d *catalog.Descriptor) { d.ID = "Workspace.read" },
			`tool ID "Workspace.read" does not match ^[a-z][a-zA-Z0-9]*(\.[a-zA-Z0-9]+)+$`),
		Entry("model name with a dot", func(d *catalog.Descriptor) { d.ModelName = "peek.file" },
			`tool "workspace.peek": model name "peek.file" does not match ^[a-z][a-z0-9_]*$`),
		Entry("model name with upper case", func(d *catalog.Descriptor) { d.ModelName = "peekFile" },
			`tool "workspace.peek": model name "peekFile" does not match ^[a-z][a-z0-9_]*$`),
		Entry("version that is not semver", func(d *catalog.Descriptor) { d.Version = "2.0" },
			`tool "workspace.peek": version "2.0" is not MAJOR.MINOR.PATCH`),
		Entry("input schema outside the subset", func(d *catalog.Descriptor) { d.InputSchema = map[string]any{"type": "string", "pattern": "["} },
			"tool \"workspace.peek\": inputSchema is not in the supported subset: #: \"pattern\" is not a valid regular expression: pattern \"[\" does not compile: error parsing regexp: missing closing ]: `[`"),
		Entry("output schema outside the subset", func(d *catalog.Descriptor) { d.OutputSchema = map[string]any{"madeUpKeyword": true} },
			`tool "workspace.peek": outputSchema is not in the supported subset: #: unsupported keyword "madeUpKeyword"`),
		Entry("output schema without properties", func(d *catalog.Descriptor) { d.OutputSchema = map[string]any{"type": "object"} },
			`tool "workspace.peek": outputSchema declares no properties`),
		Entry("output schema with empty properties", func(d *catalog.Descriptor) {
			d.OutputSchema = map[string]any{"type": "object", "properties": map[string]any{}}
		}, `tool "workspace.peek": outputSchema declares no properties`),
		Entry("extension owner without extensionId", func(d *catalog.Descriptor) { d.Source = catalog.Source{Owner: "extension"} },
			`tool "workspace.peek": source owner "extension" needs an extensionId`),
		Entry("mcp owner without serverId", func(d *catalog.Descriptor) { d.Source = catalog.Source{Owner: "mcp"} },
			`tool "workspace.peek": source owner "mcp" needs a serverId`),
		Entry("extension transport with another owner", func(d *catalog.Descriptor) { d.Transport = "extension" },
			`tool "workspace.peek": transport "extension" needs source owner "extension", got "core"`),
		Entry("mcp transport with another owner", func(d *catalog.Descriptor) { d.Transport = "mcp" },
			`tool "workspace.peek": transport "mcp" needs source owner "mcp", got "core"`),
	)

	It("accepts extension and MCP tools with matching owners", func() {
		ext := valid()
		ext.Transport, ext.Source = "extension", catalog.Source{Owner: "extension", ExtensionID: "acme.tools"}
		mcp := valid()
		mcp.ID, mcp.ModelName = "mcp.fetch", "mcp_fetch"
		mcp.Transport, mcp.Source = "mcp", catalog.Source{Owner: "mcp", ServerID: "srv"}
		Expect(catalog.CheckDescriptors([]catalog.Descriptor{ext, mcp})).To(Succeed())
	})

	It("rejects a duplicate canonical ID with the exact message", func() {
		a, b := valid(), valid()
		b.ModelName = "other_name"
		Expect(catalog.CheckDescriptors([]catalog.Descriptor{a, b})).To(MatchError("Duplicate canonical tool ID: workspace.peek"))
		_, err := catalog.NewSnapshot(catalog.Options{Descriptors: []catalog.Descriptor{b, a}})
		Expect(err).To(MatchError("Duplicate canonical tool ID: workspace.peek"))
	})

	It("rejects a duplicate model-facing name with the exact message", func() {
		a, b := valid(), valid()
		b.ID = "workspace.other"
		Expect(catalog.CheckDescriptors([]catalog.Descriptor{a, b})).To(MatchError("Duplicate model-facing tool name: peek_file"))
		_, err := catalog.NewSnapshot(catalog.Options{Descriptors: append(catalog.Core(), b, a)})
		Expect(err).To(MatchError("Duplicate model-facing tool name: peek_file"))
	})

	It("fails registry construction on an invalid pattern, not at invocation", func() {
		// Original test "invalid schema definitions fail during registry
		// construction, not invocation".
		d := tool("workspace.read")
		d.ID, d.ModelName, d.InputSchema = "workspace.invalid", "invalid_schema", map[string]any{"type": "string", "pattern": "["}
		_, err := catalog.NewSnapshot(catalog.Options{Descriptors: []catalog.Descriptor{d}, AvailableToolIDs: []string{d.ID}})
		Expect(err).To(MatchError(ContainSubstring("pattern")))
	})
})

var _ = Describe("the registry document (CONTRACTS §4.2)", func() {
	DescribeTable("rejects a field outside its range with the field's pointer",
		func(mutate func(*catalog.Descriptor), violation schema.Violation) {
			d := valid()
			mutate(&d)
			err := catalog.CheckDocument([]catalog.Descriptor{d})
			Expect(err).To(MatchError(HavePrefix("tool registry document is invalid: value does not match the schema: ")))
			var ve *schema.ValueError
			Expect(errors.As(err, &ve)).To(BeTrue())
			Expect(ve.Violations).To(ContainElement(violation))
			_, err = catalog.NewSnapshot(catalog.Options{Descriptors: []catalog.Descriptor{d}})
			Expect(err).To(MatchError(HavePrefix("tool registry document is invalid")))
		},
		Entry("timeout below 100", func(d *catalog.Descriptor) { d.TimeoutMs = 99 },
			schema.Violation{Pointer: "/tools/0/timeoutMs", Keyword: "minimum", Message: "99 is less than the minimum 100"}),
		Entry("timeout above 600000", func(d *catalog.Descriptor) { d.TimeoutMs = 600001 },
			schema.Violation{Pointer: "/tools/0/timeoutMs", Keyword: "maximum", Message: "600001 is greater than the maximum 600000"}),
		Entry("output bytes below 256", func(d *catalog.Descriptor) { d.MaxOutputBytes = 255 },
			schema.Violation{Pointer: "/tools/0/maxOutputBytes", Keyword: "minimum", Message: "255 is less than the minimum 256"}),
		Entry("output tokens below 64", func(d *catalog.Descriptor) { d.MaxOutputTokens = 63 },
			schema.Violation{Pointer: "/tools/0/maxOutputTokens", Keyword: "minimum", Message: "63 is less than the minimum 64"}),
		Entry("empty title", func(d *catalog.Descriptor) { d.Title = "" },
			schema.Violation{Pointer: "/tools/0/title", Keyword: "minLength", Message: "has 0 UTF-16 code units, fewer than the minimum 1"}),
		Entry("empty description", func(d *catalog.Descriptor) { d.Description = "" },
			schema.Violation{Pointer: "/tools/0/description", Keyword: "minLength", Message: "has 0 UTF-16 code units, fewer than the minimum 1"}),
		Entry("description over 600 units", func(d *catalog.Descriptor) { d.Description = string(make([]byte, 601)) },
			schema.Violation{Pointer: "/tools/0/description", Keyword: "maxLength", Message: "has 601 UTF-16 code units, more than the maximum 600"}),
		Entry("unknown category", func(d *catalog.Descriptor) { d.Category = "misc" },
			schema.Violation{Pointer: "/tools/0/category", Keyword: "enum", Message: `must be one of ["artifact","bootstrap","command","communication","git","perception","preview","project","research","workspace"]`}),
		Entry("unknown transport", func(d *catalog.Descriptor) { d.Transport = "http" },
			schema.Violation{Pointer: "/tools/0/transport", Keyword: "enum", Message: `must be one of ["native","core","extension","mcp"]`}),
		Entry("unknown risk", func(d *catalog.Descriptor) { d.Risk = "none" },
			schema.Violation{Pointer: "/tools/0/risk", Keyword: "enum", Message: `must be one of ["low","medium","high","critical"]`}),
		Entry("unknown mutability", func(d *catalog.Descriptor) { d.Mutability = "delete" },
			schema.Violation{Pointer: "/tools/0/mutability", Keyword: "enum", Message: `must be one of ["read","write","execute","external_side_effect"]`}),
		Entry("unknown idempotency", func(d *catalog.Descriptor) { d.Idempotency = "maybe" },
			schema.Violation{Pointer: "/tools/0/idempotency", Keyword: "enum", Message: `must be one of ["safe","with_key","unsafe"]`}),
		Entry("repeated permission", func(d *catalog.Descriptor) { d.Permissions = []string{"fs.workspace", "fs.workspace"} },
			schema.Violation{Pointer: "/tools/0/permissions", Keyword: "uniqueItems", Message: "items 0 and 1 are equal"}),
		Entry("empty permission", func(d *catalog.Descriptor) { d.Permissions = []string{""} },
			schema.Violation{Pointer: "/tools/0/permissions/0", Keyword: "minLength", Message: "has 0 UTF-16 code units, fewer than the minimum 1"}),
		Entry("nil permissions", func(d *catalog.Descriptor) { d.Permissions = nil },
			schema.Violation{Pointer: "/tools/0/permissions", Keyword: "type", Message: "must be of type array, got null"}),
		Entry("unknown modality", func(d *catalog.Descriptor) { d.Modalities.Produces = []string{"smell"} },
			schema.Violation{Pointer: "/tools/0/modalities/produces/0", Keyword: "enum", Message: `must be one of ["text","image","video","audio","structured_data","artifact"]`}),
		Entry("repeated required capability", func(d *catalog.Descriptor) { d.Modalities.RequiredModelCapabilities = []string{"tools", "tools"} },
			schema.Violation{Pointer: "/tools/0/modalities/requiredModelCapabilities", Keyword: "uniqueItems", Message: "items 0 and 1 are equal"}),
		Entry("unknown owner", func(d *catalog.Descriptor) { d.Source.Owner = "vendor" },
			schema.Violation{Pointer: "/tools/0/source/owner", Keyword: "enum", Message: `must be one of ["base","core","extension","mcp"]`}),
		Entry("nil input schema", func(d *catalog.Descriptor) { d.InputSchema = nil },
			schema.Violation{Pointer: "/tools/0/inputSchema", Keyword: "type", Message: "must be of type object, got null"}),
		Entry("bad ID", func(d *catalog.Descriptor) { d.ID = "bad" },
			schema.Violation{Pointer: "/tools/0/id", Keyword: "pattern", Message: `"bad" does not match the pattern "^[a-z][a-zA-Z0-9]*(\\.[a-zA-Z0-9]+)+$"`}),
	)

	It("is itself a schema in the subset", func() {
		Expect(schema.CheckDefinition(catalog.RegistrySchema())).To(BeEmpty())
	})

	It("judges each document again after a valid one, however many were checked", func() {
		// The memo of valid documents must never let an invalid one through.
		for i := range 40 {
			d := valid()
			d.TimeoutMs = 100 + i
			Expect(catalog.CheckDocument([]catalog.Descriptor{d})).To(Succeed())
			Expect(catalog.CheckDocument([]catalog.Descriptor{d})).To(Succeed())
			d.Title = ""
			Expect(catalog.CheckDocument([]catalog.Descriptor{d})).To(MatchError(ContainSubstring("/tools/0/title")))
		}
	})
})

var _ = Describe("WithDefaults (CONTRACTS §4.2)", func() {
	It("fills every unset field with the catalog default", func() {
		d := catalog.WithDefaults(catalog.Descriptor{ID: "x.y", Mutability: catalog.MutabilityRead})
		Expect(d.Version).To(Equal("2.0.0"))
		Expect(d.Transport).To(Equal("core"))
		Expect(d.Idempotency).To(Equal("safe"))
		Expect(d.TimeoutMs).To(Equal(30000))
		Expect(d.MaxOutputBytes).To(Equal(32000))
		Expect(d.MaxOutputTokens).To(Equal(8000))
		Expect(d.SupportsPagination || d.SupportsCancellation || d.EnabledByDefault).To(BeFalse())
		Expect(d.Modalities).To(Equal(catalog.Modalities{Accepts: []string{"text"}, Produces: []string{"structured_data", "text"}}))
		Expect(d.Source).To(Equal(catalog.Source{Owner: "core"}))
		Expect(d.Permissions).To(Equal([]string{}))
	})

	DescribeTable("defaults idempotency from mutability",
		func(mutability, want string) {
			Expect(catalog.WithDefaults(catalog.Descriptor{Mutability: mutability}).Idempotency).To(Equal(want))
		},
		Entry("read is safe", "read", "safe"),
		Entry("write is unsafe", "write", "unsafe"),
		Entry("execute is unsafe", "execute", "unsafe"),
		Entry("external side effects are unsafe", "external_side_effect", "unsafe"),
	)

	It("keeps a tool's own values", func() {
		own := catalog.Descriptor{
			Version: "1.2.3", Transport: "native", Mutability: "write", Idempotency: "with_key", TimeoutMs: 180000,
			MaxOutputBytes: 1000, MaxOutputTokens: 100,
			Modalities: catalog.Modalities{Accepts: []string{}, Produces: []string{"text"}},
			Source:     catalog.Source{Owner: "extension", ExtensionID: "e"}, Permissions: []string{"p"},
		}
		Expect(catalog.WithDefaults(own)).To(Equal(own))
	})

	It("keeps required model capabilities when defaulting modalities", func() {
		d := catalog.WithDefaults(catalog.Descriptor{Modalities: catalog.Modalities{RequiredModelCapabilities: []string{"tools"}}})
		Expect(d.Modalities.Accepts).To(Equal([]string{"text"}))
		Expect(d.Modalities.RequiredModelCapabilities).To(Equal([]string{"tools"}))
	})
})
