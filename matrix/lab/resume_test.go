package lab_test

import (
	"encoding/json"

	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/jsonrpc"
	"github.com/galaxy-stack/conform/matrix/lab"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// resumeFixture is a pause and fresh-host resume of matrix item 10.
const resumeFixture = "../../fixtures/matrix/10-pause-resume/fresh-host-resume.json"

// sentTo reports whether host process p of rep received a request of
// method.
func sentTo(rep *lab.Report, p int, method string) bool {
	for _, m := range rep.Wire {
		var msg jsonrpc.Envelope
		if m.Sent && m.Process == p && json.Unmarshal(m.Line, &msg) == nil && msg.Method == method {
			return true
		}
	}
	return false
}

var _ = Describe("a fresh-host resume", func() {
	It("loads the checkpoint through the new host process's store", func() {
		rep := runFast(hostArgv("reference"), loadOne(resumeFixture))
		Expect(failuresOf(rep)).To(BeEmpty())
		Expect(sentTo(rep, 2, wire.MethodStoreGet)).To(BeTrue(), "the core must load the checkpoint with store/get from process 2")
	})

	It("fails when the new process's store/get returns nothing, whatever the previous process answered", func() {
		rep := runFast(mutantArgv("store-get-nothing"), loadOne(resumeFixture))
		Expect(rep.Status).To(Equal("failed"))
		Expect(rep.ErrorCode).NotTo(BeNil())
		Expect(*rep.ErrorCode).To(Equal("CHECKPOINT_INCOMPATIBLE"))
		Expect(rep.ErrorMessage).To(ContainSubstring("No checkpoint found"))
	})
})
