package proxy_test

import (
	"errors"
	"runtime"

	"github.com/galaxy-stack/conform/hosts/wire"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// These specs attach the proxy where the harness does: hostproc.Start with
// hostproc.StartOptions{Interpose: p.Attach}, so the client owns the host
// process and its exit.
var _ = Describe("the proxy attached through hostproc.StartOptions.Interpose", func() {
	BeforeEach(func() {
		if runtime.GOOS == "windows" {
			Skip("these specs script /bin/sh")
		}
	})

	It("passes the host's approval requests through and throws after a real command's write", func() {
		s := startSession(setup{interpose: true, approvalProfile: "balanced",
			rules: `[{"method":"tool/execute","canonicalToolId":"command.run","nth":1,"action":"throw_after_commit"}]`})
		_, err := s.execute("run_command", map[string]any{"command": "printf one > one.txt"})
		Expect(errors.Is(err, wire.ErrUnknownOutcome)).To(BeTrue(), "%v", err)
		Expect(rpcError(err).Data).To(HaveKeyWithValue("canonicalToolId", "command.run"))
		Expect(s.onDisk("one.txt")).To(Equal("one"), "the approval answer reached the host, which ran the command")

		r, err := s.execute("run_command", map[string]any{"command": "printf two > two.txt"})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.OK).To(BeTrue(), r.Content)
		Expect(r.Effects.Approval).To(Equal("granted"))
		Expect(r.Effects.Writes).To(HaveExactElements(HaveField("Path", "two.txt")))
		Expect(s.onDisk("two.txt")).To(Equal("two"))

		Expect(s.approved()).To(HaveExactElements(HaveField("CanonicalToolID", "command.run"), HaveField("CanonicalToolID", "command.run")))
		Expect(s.proxy.Faults()).To(HaveExactElements(And(HaveField("Action", "throw_after_commit"), HaveField("ModelName", "run_command"))))
	})

	It("drop_ack: the command's write lands, and the client reports the host gone", func() {
		s := startSession(setup{interpose: true,
			rules: `[{"method":"tool/execute","modelName":"run_command","action":"drop_ack"}]`})
		_, err := s.execute("run_command", map[string]any{"command": "printf hi > out.txt"})
		Expect(protocolError(err).Reason).To(HavePrefix("the host exited without answering"),
			"closing the host's input through the seam ends the process the client started")
		Expect(s.onDisk("out.txt")).To(Equal("hi"))
		Eventually(s.proxy.Done()).Should(BeClosed())
	})
})
