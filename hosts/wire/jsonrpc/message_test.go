package jsonrpc_test

import (
	"encoding/json"

	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/jsonrpc"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("Message", func() {
	DescribeTable("decodes each kind of line into its type and encodes it back unchanged",
		func(line string, want jsonrpc.Message) {
			m, err := jsonrpc.DecodeMessage([]byte(line))
			Expect(err).NotTo(HaveOccurred())
			Expect(m).To(Equal(want))
			b, err := jsonrpc.EncodeMessage(m)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(b)).To(Equal(line))
		},
		Entry("a call", `{"jsonrpc":"2.0","id":7,"method":"shutdown","params":{}}`,
			&jsonrpc.Request{ID: json.RawMessage(`7`), Method: "shutdown", Params: json.RawMessage(`{}`)}),
		Entry("a notification", `{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"a"}}`,
			&jsonrpc.Request{Method: "$/cancelRequest", Params: json.RawMessage(`{"id":"a"}`)}),
		Entry("a result", `{"jsonrpc":"2.0","id":"x","result":{"durableEvents":1}}`,
			&jsonrpc.Response{ID: json.RawMessage(`"x"`), Result: json.RawMessage(`{"durableEvents":1}`)}),
		Entry("an error", `{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"method not found"}}`,
			&jsonrpc.Response{ID: json.RawMessage(`2`), Error: &wire.Error{Code: -32601, Message: "method not found"}}),
	)

	It("tells a notification from a call", func() {
		Expect((&jsonrpc.Request{Method: "m"}).IsCall()).To(BeFalse())
		Expect((&jsonrpc.Request{ID: json.RawMessage(`1`), Method: "m"}).IsCall()).To(BeTrue())
	})

	It("refuses a response without an id and a line that is not JSON", func() {
		_, err := jsonrpc.DecodeMessage([]byte(`{"jsonrpc":"2.0","result":{}}`))
		Expect(err).To(MatchError(ContainSubstring("response without an id")))
		_, err = jsonrpc.DecodeMessage([]byte(`{"jsonrpc":`))
		Expect(err).To(HaveOccurred())
	})
})
