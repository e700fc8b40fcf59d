package run_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/run"
)

var _ = Describe("the host effect policy during a run (RUNTIME §3)", func() {
	It("fails the run when the policy changes, after rounds in which it stayed the same", func() {
		m := newFnModel(roundCalls("workspace_list", "c1"), roundCalls("workspace_list", "c2"), roundCalls("workspace_list", "c3"),
			[]port.RoundEvent{started(), doneText("Listed src.")})
		e := newEnv(m)
		e.exec.changeCapsOf, e.exec.changeCapsAt, e.exec.newCaps = "workspace_list", 2, []string{"inspect", "validate"}
		r := e.start(baseRequest("run-policy-change"))
		Expect(r.Status).To(Equal(run.StatusFailed))
		Expect(r.ErrorCode).To(Equal(run.CodeToolExecution))
		Expect(r.ErrorMessage).To(Equal("Host effect capability policy changed during the run."))
		Expect(e.exec.calls).To(HaveLen(2), "the third round is never asked for")
	})

	It("checks a tool set again when it differs from the last one accepted, after rounds in which it stayed the same", func() {
		m := newFnModel(roundCalls("workspace_list", "c1"), roundCalls("workspace_list", "c2"), roundCalls("workspace_list", "c3"),
			[]port.RoundEvent{started(), doneText("Listed src.")})
		e := newEnv(m)
		e.exec.changeCapsOf, e.exec.changeCapsAt, e.exec.newCaps = "workspace_list", 2, []string{"teleport"}
		r := e.start(baseRequest("run-toolset-recheck"))
		Expect(r.Status).To(Equal(run.StatusFailed))
		Expect(r.ErrorCode).To(Equal(run.CodeToolExecution))
		Expect(r.ErrorMessage).To(Equal("Unknown effect capability declared for workspace_list."),
			"the tool set check, not only the policy hash, sees the changed set")
		Expect(e.exec.calls).To(HaveLen(2))
	})

	It("keeps running while the policy is equal to the one it started with", func() {
		m := newFnModel(roundCalls("workspace_list", "c1"), roundCalls("workspace_list", "c2"),
			[]port.RoundEvent{started(), doneText("Listed src.")})
		e := newEnv(m)
		e.exec.changeCapsOf, e.exec.changeCapsAt, e.exec.newCaps = "workspace_list", 1, []string{"inspect"}
		r := e.start(baseRequest("run-policy-same"))
		Expect(r.Status).To(Equal(run.StatusCompleted), "%s %s", r.ErrorCode, r.ErrorMessage)
		Expect(e.exec.calls).To(HaveLen(2))
	})
})
