package proxy_test

import (
	"errors"

	"github.com/galaxy-stack/conform/hosts/wire"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// create is a write_file call of the reference host that creates a.txt.
var create = map[string]any{"path": "a.txt", "content": "hello", "precondition": map[string]any{"kind": "must_not_exist"}}

var _ = Describe("fault rules against the reference host process", func() {
	It("the write works through an empty proxy", func() {
		s := startSession(referenceArgv(), `[]`)
		r, err := s.execute("write_file", create)
		Expect(err).NotTo(HaveOccurred())
		Expect(r.OK).To(BeTrue(), r.Content)
		Expect(s.onDisk("a.txt")).To(Equal("hello"))
	})

	It("drop_ack: the reference host writes the file, the client sees a transport error", func() {
		s := startSession(referenceArgv(), `[{"method":"tool/execute","modelName":"write_file","action":"drop_ack"}]`)
		_, err := s.execute("write_file", create)
		protocolError(err)
		Eventually(func() string { return s.onDisk("a.txt") }).Should(Equal("hello"))
	})

	It("close: the reference host never sees the call", func() {
		s := startSession(referenceArgv(), `[{"method":"tool/execute","canonicalToolId":"workspace.write","action":"close"}]`)
		_, err := s.execute("write_file", create)
		protocolError(err)
		Consistently(func() string { return s.onDisk("a.txt") }, "200ms").Should(Equal(absent))
	})

	It("corrupt_result: malformed output after the reference host's real write", func() {
		s := startSession(referenceArgv(), `[{"method":"tool/execute","modelName":"write_file","action":"corrupt_result"}]`)
		_, err := s.execute("write_file", create)
		Expect(protocolError(err).Pointer).To(HavePrefix("/result"))
		Expect(s.onDisk("a.txt")).To(Equal("hello"))
	})

	It("throw_after_commit: the reference host wrote, the client gets an unknown outcome", func() {
		s := startSession(referenceArgv(), `[{"method":"tool/execute","modelName":"write_file","action":"throw_after_commit"}]`)
		_, err := s.execute("write_file", create)
		Expect(errors.Is(err, wire.ErrUnknownOutcome)).To(BeTrue(), "%v", err)
		Expect(s.onDisk("a.txt")).To(Equal("hello"))
	})

	It("forge_effects and mismatch_id rewrite the reference host's result", func() {
		s := startSession(referenceArgv(), `[
			{"method":"tool/execute","modelName":"write_file","action":"forge_effects",
			 "effects":{"writes":[{"path":"ghost.txt","beforeHash":null,"afterHash":"sha256:00"}]}},
			{"method":"tool/execute","modelName":"write_file","action":"mismatch_id","claimCanonicalToolId":"workspace.edit"}]`)
		r, err := s.execute("write_file", create)
		Expect(err).NotTo(HaveOccurred())
		Expect(r.CanonicalToolID).To(Equal("workspace.edit"))
		Expect(r.Effects.Writes).To(ContainElement(HaveField("Path", "ghost.txt")))
		Expect(r.Effects.Writes).To(ContainElement(HaveField("Path", "a.txt")))
		Expect(s.onDisk("ghost.txt")).To(Equal(absent))
		Expect(s.onDisk("a.txt")).To(Equal("hello"))
	})

	It("fail: the reference host never runs the call", func() {
		s := startSession(referenceArgv(), `[{"method":"tool/execute","modelName":"write_file","nth":1,"action":"fail"}]`)
		_, err := s.execute("write_file", create)
		Expect(errors.Is(err, wire.ErrInternal)).To(BeTrue(), "%v", err)
		Expect(s.onDisk("a.txt")).To(Equal(absent))
	})
})
