package wire_test

import (
	"strings"

	"github.com/galaxy-stack/conform/hosts/wire"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("schemas", func() {
	valid := `{"protocolVersion":"1","host":{"name":"h","version":"1"},"tools":["workspace.read"],"capabilities":{"store":false,"trace":false,"spill":false,"fingerprint":false}}`

	It("accept a well-formed initialize result", func() {
		Expect(wire.Validate("initialize.result.json", []byte(valid))).To(BeNil())
	})

	DescribeTable("name the JSON pointer of a violation",
		func(doc, pointer, reason string) {
			v := wire.Validate("initialize.result.json", []byte(doc))
			Expect(v).NotTo(BeNil())
			Expect(v.Pointer).To(Equal(pointer))
			Expect(v.Reason).To(ContainSubstring(reason))
		},
		Entry("missing nested field", strings.Replace(valid, `"name":"h",`, "", 1), "/host/name", "required field is missing"),
		Entry("unknown field", strings.Replace(valid, `"tools"`, `"extra":1,"tools"`, 1), "/extra", "unknown field"),
		Entry("wrong type", strings.Replace(valid, `"store":false`, `"store":"no"`, 1), "/capabilities/store", ""),
	)

	It("reject a response with both result and error", func() {
		v := wire.Validate(wire.SchemaResponse, []byte(`{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}`))
		Expect(v).NotTo(BeNil())
	})

	It("are all published and compile", func() {
		Expect(wire.SchemaNames()).To(ContainElements("initialize.result.json", "tools-list.result.json", "tool-execute.result.json", "shutdown.result.json", "response.json", "request.json"))
		// Each schema is compiled on first use, so compile every one here.
		for _, name := range wire.SchemaNames() {
			if v := wire.Validate(name, []byte(`null`)); v != nil {
				Expect(v.Reason).NotTo(HavePrefix("wire:"), name)
				Expect(v.Reason).NotTo(HavePrefix("no schema"), name)
			}
		}
		Expect(wire.Validate("absent.json", []byte(`null`))).To(Equal(&wire.Violation{Reason: `no schema "absent.json"`}))
	})
})
