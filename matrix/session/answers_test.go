package session

import (
	"errors"
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/hosts/wire"
)

var _ = Describe("the host's answers the harness refuses", func() {
	answer := func(method string, code int64, msg string) error {
		return fmt.Errorf("calling: %w", &wire.MethodError{Method: method, Err: &wire.Error{Code: code, Message: msg}})
	}

	It("makes a JSON-RPC error no host may answer with a protocol break naming the method, the call, the code and the message", func() {
		e := &executor{}
		err := e.recordCall(answer(wire.MethodExecute, -32601, "nope"), ` call "l" (tool list_files)`)
		var pe *wire.ProtocolError
		Expect(errors.As(err, &pe)).To(BeTrue(), "the error is %v", err)
		Expect(err.Error()).To(Equal(`host broke the protocol answering "tool/execute": it answered call "l" (tool list_files) with JSON-RPC error -32601 "nope", and -32601 (method not found) is no answer to a well-formed tool/execute; see hosts/wire/PROTOCOL.md#errors`))
		Expect(e.hostError()).To(Equal(err))
	})

	DescribeTable("keeps the errors a host may answer with",
		func(method string, code int64) {
			e := &executor{}
			in := answer(method, code, "why")
			Expect(e.record(in)).To(Equal(in))
			Expect(e.hostError()).To(BeNil())
		},
		Entry("an unknown outcome of tool/execute", wire.MethodExecute, wire.ErrUnknownOutcome.Code),
		Entry("a cancelled store/get", wire.MethodStoreGet, wire.ErrRequestCancelled.Code),
		Entry("a port failure of store/put", wire.MethodStorePut, wire.ErrPortFailure.Code),
		Entry("a port failure of tools/restore", wire.MethodToolsRestore, wire.ErrPortFailure.Code),
		Entry("an internal error", wire.MethodExecute, wire.ErrInternal.Code),
	)

	It("keeps a -32800 answer to tool/execute as an unknown outcome and says a cancelled call is answered with its result", func() {
		e := &executor{}
		err := e.recordCall(answer(wire.MethodExecute, wire.ErrRequestCancelled.Code, "request cancelled"), ` call "r" (tool run_command)`)
		var me *wire.MethodError
		Expect(errors.As(err, &me)).To(BeTrue(), "the error is %v", err)
		Expect(me.Err.Code).To(Equal(wire.ErrRequestCancelled.Code))
		Expect(err).To(MatchError(HaveSuffix(`a cancelled tool/execute is answered with its structured result, never -32800: "Cancellation makes an in-flight side-effect outcome unknown unless the host returns a structured result"; see hosts/wire/PROTOCOL.md#timeouts-and-cancellation`)))
		Expect(e.hostError()).To(BeNil(), "a -32800 answer is a failure the core handles, not a protocol break")
	})

	DescribeTable("refuses the errors that answer another method",
		func(method string, code int64) {
			Expect(breaksProtocol(method, code)).To(BeTrue())
		},
		Entry("a port failure of tool/execute", wire.MethodExecute, wire.ErrPortFailure.Code),
		Entry("an unknown outcome of store/put", wire.MethodStorePut, wire.ErrUnknownOutcome.Code),
		Entry("invalid params of trace/append", wire.MethodTraceAppend, wire.ErrInvalidParams.Code),
		Entry("not initialized after initialize", wire.MethodFingerprint, wire.ErrNotInitialized.Code),
	)

	It("says that a result's content is not JSON, with the call ID and the tool", func() {
		err := contentError("l", "list_files", "entries: a, b")
		Expect(err).To(MatchError(`host broke the protocol answering "tool/execute": the host's result for call "l" (tool list_files) has content that is not JSON: invalid character 'e' looking for beginning of value (see hosts/wire/CONTRACTS.md#result-envelope); it sent "entries: a, b"`))
		Expect(contentError("l", "list_files", `["a"]`)).To(MatchError(ContainSubstring("has content that is JSON but not an object")))
		Expect(contentError("l", "list_files", `{"entries":[]}`)).To(Succeed())
	})
})
