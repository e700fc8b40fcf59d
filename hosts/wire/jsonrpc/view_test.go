package jsonrpc_test

import (
	"encoding/json"

	"github.com/galaxy-stack/conform/hosts/wire/jsonrpc"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("RawView", func() {
	It("leaves a response's result and a request's params in the line instead of copying them", func() {
		line := []byte(`{"jsonrpc":"2.0","id":1,"result":{"blob":"abc"}}`)
		m, err := jsonrpc.DecodeMessage(line)
		Expect(err).NotTo(HaveOccurred())
		res := m.(*jsonrpc.Response).Result
		Expect(string(res)).To(Equal(`{"blob":"abc"}`))
		line[len(line)-4] = 'X' // the c of "abc"
		Expect(string(res)).To(Equal(`{"blob":"abX"}`), "the result shares the line's bytes")

		req := []byte(`{"jsonrpc":"2.0","id":2,"method":"m","params":[1]}`)
		m, err = jsonrpc.DecodeMessage(req)
		Expect(err).NotTo(HaveOccurred())
		params := m.(*jsonrpc.Request).Params
		Expect(string(params)).To(Equal(`[1]`))
		req[len(req)-3] = '7'
		Expect(string(params)).To(Equal(`[7]`))
	})

	It("never lets an append to the shared result write into the rest of the line", func() {
		line := []byte(`{"jsonrpc":"2.0","result":1,"id":1}`)
		m, err := jsonrpc.DecodeMessage(line)
		Expect(err).NotTo(HaveOccurred())
		res := m.(*jsonrpc.Response).Result
		_ = append(res, "9999"...)
		Expect(string(line)).To(Equal(`{"jsonrpc":"2.0","result":1,"id":1}`))
	})

	It("decodes as json.RawMessage does: the last of repeated members, null kept as null, an absent member nil", func() {
		for _, line := range []string{
			`{"jsonrpc":"2.0","id":1,"result":{"a":1},"result":[2]}`,
			`{"jsonrpc":"2.0","id":1,"result":null}`,
			`{"jsonrpc":"2.0","id":1,"Result":"folded"}`,
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"bad"}}`,
		} {
			var e jsonrpc.Envelope
			Expect(json.Unmarshal([]byte(line), &e)).To(Succeed())
			m, err := jsonrpc.DecodeMessage([]byte(line))
			Expect(err).NotTo(HaveOccurred())
			Expect(m.(*jsonrpc.Response).Result).To(Equal(e.Result), line)
		}
	})

	It("copies text that is not part of In", func() {
		src := []byte(`{"k":"v"}`)
		v := jsonrpc.RawView{In: []byte(`{"other":true}`)}
		Expect(v.UnmarshalJSON(src)).To(Succeed())
		src[1] = 'X'
		Expect(string(v.Raw)).To(Equal(`{"k":"v"}`))
	})
})
