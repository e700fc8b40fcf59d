package wire_test

import (
	"github.com/galaxy-stack/conform/hosts/wire"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("the prompt input schema", func() {
	It("accepts the structured configuration a host supplies", func() {
		doc := `{"approvalProfile":"balanced","networkAccess":"allowed","writeAccess":"denied",
			"trustedWorkspaceInstructions":[{"content":"Use tabs.","source":"user settings"}]}`
		Expect(wire.Validate(wire.SchemaPromptInput, []byte(doc))).To(BeNil())
	})

	DescribeTable("states the rules the core applies",
		func(doc string) {
			Expect(wire.Validate(wire.SchemaPromptInput, []byte(doc))).NotTo(BeNil())
		},
		Entry("systemPrompt", `{"systemPrompt":"x"}`),
		Entry("promptHash", `{"promptHash":"sha256:0"}`),
		Entry("promptVersion", `{"promptVersion":"1"}`),
		Entry("legacy workspaceInstructions", `{"workspaceInstructions":["x"]}`),
		Entry("an unknown key", `{"toolPolicy":{}}`),
		Entry("a value outside the set", `{"networkAccess":"restricted"}`),
		Entry("an instruction without provenance", `{"trustedWorkspaceInstructions":[{"content":"x","source":" "}]}`),
	)

	It("leaves the judgment to the core in initialize: promptInput need only be an object", func() {
		answer := `{"protocolVersion":"1","host":{"name":"h","version":"1"},"tools":[],"capabilities":{"store":false,"trace":false,"spill":false,"fingerprint":false},"promptInput":{"systemPrompt":"x"}}`
		Expect(wire.Validate("initialize.result.json", []byte(answer))).To(BeNil())
		notObject := `{"protocolVersion":"1","host":{"name":"h","version":"1"},"tools":[],"capabilities":{"store":false,"trace":false,"spill":false,"fingerprint":false},"promptInput":"x"}`
		Expect(wire.Validate("initialize.result.json", []byte(notObject))).NotTo(BeNil())
	})
})
