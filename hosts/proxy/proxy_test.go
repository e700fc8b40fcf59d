package proxy_test

import (
	"context"
	"errors"
	"time"

	"github.com/galaxy-stack/conform/hosts/proxy"
	"github.com/galaxy-stack/conform/hosts/wire"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func protocolError(err error) *wire.ProtocolError {
	GinkgoHelper()
	var pe *wire.ProtocolError
	Expect(errors.As(err, &pe)).To(BeTrue(), "want a transport/protocol error, got %v", err)
	return pe
}

var write = map[string]any{"path": "a.txt", "content": "hello"}

var _ = Describe("fault rules against a real host process", func() {
	It("passes everything through without rules", func() {
		s := startSession(testHostArgv(), `[]`)
		r, err := s.execute("write_file", write)
		Expect(err).NotTo(HaveOccurred())
		Expect(r.OK).To(BeTrue())
		Expect(s.onDisk("a.txt")).To(Equal("hello"))
		Expect(s.proxy.Faults()).To(BeEmpty())
	})

	It("fail: answers the Nth matching call with an error; the host never runs it", func() {
		s := startSession(testHostArgv(), `[{"method":"tool/execute","modelName":"write_file","nth":1,"action":"fail","error":{"code":-32603,"message":"boom"}}]`)
		_, err := s.execute("write_file", write)
		Expect(errors.Is(err, wire.ErrInternal)).To(BeTrue(), "%v", err)
		Expect(s.onDisk("a.txt")).To(Equal(absent))
		_, err = s.execute("write_file", write)
		Expect(err).NotTo(HaveOccurred())
		Expect(s.onDisk("a.txt")).To(Equal("hello"))
		Expect(s.proxy.Faults()).To(Equal([]proxy.Fault{{Seq: 1, Rule: 0, Action: "fail", Method: "tool/execute", RequestID: "3",
			ModelName: "write_file", CanonicalToolID: "workspace.write", Detail: "answered with JSON-RPC error -32603 without forwarding"}}))
	})

	It("close: closes the transport before the host sees the call", func() {
		s := startSession(testHostArgv(), `[{"method":"tool/execute","action":"close"}]`)
		_, err := s.execute("write_file", write)
		protocolError(err)
		Expect(s.onDisk("a.txt")).To(Equal(absent))
		Eventually(s.proxy.Done()).Should(BeClosed())
	})

	It("delay: holds the call, then the host runs it", func() {
		s := startSession(testHostArgv(), `[{"method":"tool/execute","action":"delay","delayMs":300}]`)
		start := time.Now()
		_, err := s.execute("write_file", write)
		Expect(err).NotTo(HaveOccurred())
		Expect(time.Since(start)).To(BeNumerically(">=", 300*time.Millisecond))
		Expect(s.onDisk("a.txt")).To(Equal("hello"))
	})

	It("drop_ack: the host writes the file, the client sees a transport error", func() {
		s := startSession(testHostArgv(), `[{"method":"tool/execute","modelName":"write_file","action":"drop_ack"}]`)
		_, err := s.execute("write_file", write)
		protocolError(err)
		Eventually(func() string { return s.onDisk("a.txt") }).Should(Equal("hello"))
		Expect(s.proxy.Faults()).To(HaveExactElements(HaveField("Action", "drop_ack")))
	})

	It("corrupt_result envelope: malformed output after a real write", func() {
		s := startSession(testHostArgv(), `[{"method":"tool/execute","action":"corrupt_result"}]`)
		_, err := s.execute("write_file", write)
		pe := protocolError(err)
		Expect(pe.Pointer).To(HavePrefix("/result"))
		Expect(s.onDisk("a.txt")).To(Equal("hello"))
	})

	It("corrupt_result json: an answer that is not JSON after a real write", func() {
		s := startSession(testHostArgv(), `[{"method":"tool/execute","action":"corrupt_result","corruption":"json"}]`)
		_, err := s.execute("write_file", write)
		Expect(protocolError(err).Reason).To(ContainSubstring("JSON"))
		Expect(s.onDisk("a.txt")).To(Equal("hello"))
	})

	It("throw_after_commit: the write happened, the client gets an unknown outcome", func() {
		s := startSession(testHostArgv(), `[{"method":"tool/execute","action":"throw_after_commit"}]`)
		_, err := s.execute("write_file", write)
		Expect(errors.Is(err, wire.ErrUnknownOutcome)).To(BeTrue(), "%v", err)
		Expect(s.onDisk("a.txt")).To(Equal("hello"))
	})

	It("forge_effects: the client sees a write the host never attested", func() {
		s := startSession(testHostArgv(), `[{"method":"tool/execute","action":"forge_effects",
			"effects":{"writes":[{"path":"ghost.txt","beforeHash":null,"afterHash":"sha256:00","beforeKind":"missing","afterKind":"file"}],"inspectedPaths":["secret"]}}]`)
		r, err := s.execute("write_file", write)
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Effects.Writes).To(HaveLen(2))
		Expect(r.Effects.Writes[1].Path).To(Equal("ghost.txt"))
		Expect(r.Effects.InspectedPaths).To(Equal([]string{"secret"}))
		Expect(s.onDisk("ghost.txt")).To(Equal(absent))
		Expect(s.onDisk("a.txt")).To(Equal("hello"))
	})

	It("mismatch_id: matched by canonical ID, the result claims another tool", func() {
		s := startSession(testHostArgv(), `[{"method":"tool/execute","canonicalToolId":"workspace.write","action":"mismatch_id","claimCanonicalToolId":"workspace.read"}]`)
		r, err := s.execute("write_file", write)
		Expect(err).NotTo(HaveOccurred())
		Expect(r.CanonicalToolID).To(Equal("workspace.read"))
		r, err = s.execute("slow_write", map[string]any{"path": "b.txt", "content": "b"})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.CanonicalToolID).To(Equal("workspace.edit"))
	})

	It("cancel: the host receives $/cancelRequest mid-call and gives up before writing", func() {
		s := startSession(testHostArgv(), `[{"method":"tool/execute","modelName":"slow_write","action":"cancel","cancelAfterMs":100}]`)
		_, err := s.execute("slow_write", map[string]any{"path": "late.txt", "content": "late", "waitMs": 3000})
		Expect(errors.Is(err, wire.ErrRequestCancelled)).To(BeTrue(), "%v", err)
		time.Sleep(100 * time.Millisecond)
		Expect(s.onDisk("late.txt")).To(Equal(absent))
		Expect(s.proxy.Faults()).To(HaveExactElements(HaveField("Detail", "sent $/cancelRequest to the host after 100 ms")))
	})

	It("records faults in the order applied", func() {
		s := startSession(testHostArgv(), `[
			{"method":"tool/execute","nth":1,"action":"delay","delayMs":1},
			{"method":"tool/execute","nth":2,"action":"mismatch_id","claimCanonicalToolId":"x.y"},
			{"method":"tools/list","nth":2,"action":"fail"}]`)
		_, _ = s.execute("write_file", write)
		_, _ = s.execute("write_file", write)
		_, err := s.client.ToolSet(context.Background())
		Expect(err).To(HaveOccurred())
		var actions []string
		for i, f := range s.proxy.Faults() {
			Expect(f.Seq).To(Equal(i + 1))
			actions = append(actions, f.Action)
		}
		Expect(actions).To(Equal([]string{"delay", "mismatch_id", "fail"}))
	})
})
