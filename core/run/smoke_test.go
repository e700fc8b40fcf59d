package run_test

import (
	"github.com/galaxy-stack/conform/core/run"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("a read-only run (RUNTIME §9, §11, §20)", func() {
	It("completes with exactly the original transitions", func() {
		e := scripted(calls(call("workspace_list", "c1")), text("Inspected src."))
		r := e.start(baseRequest("run-smoke"))
		Expect(r.Status).To(Equal(run.StatusCompleted), "%s %s", r.ErrorCode, r.ErrorMessage)
		Expect(r.FinalResponse).To(Equal("Inspected src."))
		Expect(transitions(r)).To(Equal([]string{"created->preparing", "preparing->inspecting", "inspecting->reviewing", "reviewing->completed"}))
		Expect(e.exec.names()).To(Equal([]string{"workspace_list"}))
		Expect(r.Checkpoint).To(BeNil(), "a completed run makes no checkpoint of its own")
	})
})
