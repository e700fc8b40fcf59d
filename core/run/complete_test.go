package run_test

import (
	"strings"

	"github.com/galaxy-stack/conform/core/prompt"
	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/doubles/model"
	"github.com/galaxy-stack/conform/doubles/store"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("the completion attempt (RUNTIME §20.3)", func() {
	DescribeTable("takes the inspection default from the request snapshot's agent profile (RUNTIME §4.4)",
		func(profile string, completes bool) {
			req := baseRequest("run-profile-" + profile)
			req.Prompt.AgentProfile = profile
			req.Budget.MaxCompletionRejections = run.N(1)
			r := scripted(text("Answered without tools.")).start(req)
			if completes {
				Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
			} else {
				Expect(r.Status).To(Equal(run.StatusFailed))
				Expect(r.ErrorCode).To(Equal(run.CodeNoProgress), "the gate rejects the uninspected report")
			}
		},
		Entry("coding requires inspection", "coding", false),
		Entry("assistant does not", "assistant", true),
		Entry("research does not", "research", true),
	)

	It("rejects premature reports with remediation and fails NO_PROGRESS at the rejection budget", func() {
		m := model.NewScripted([]model.Round{calls(call("workspace_list", "l")), calls(call("workspace_write", "w")),
			text("Done early."), calls(call("project_validate", "v")), text("Done, validated."), text("Done again.")})
		e := newEnv(m)
		e.verifier = newVerifier()
		e.exec.tools = append(e.exec.tools[1:], testTool{name: "git_operation", canonical: "git.exec", caps: []string{"approval", "diff_review", "inspect"}})
		r := e.start(baseRequest("run-premature"))
		Expect(r.ErrorCode).To(Equal(run.CodeNoProgress))
		Expect(r.ErrorMessage).To(Equal("Completion gate failed 3 times."))
		rejected := e.eventsOf(run.EventCompletionRejected)
		Expect(rejected).To(HaveLen(3))
		Expect(rejected[0].Issues).To(Equal([]string{"WRITE_NOT_VALIDATED: src/a.ts has no later successful validation evidence.",
			"DIFF_NOT_REVIEWED: The final diff has not been reviewed after workspace mutation."}))
		Expect(rejected[1].Issues).To(Equal([]string{"DIFF_NOT_REVIEWED: The final diff has not been reviewed after workspace mutation."}))
		Expect(rejected[0].Candidate).To(Equal("Done early."))
		feedback := m.Requests()[3].Messages
		fb := feedback[len(feedback)-1].Content
		Expect(fb).To(HavePrefix("[GALAXY COMPLETION GATE FEEDBACK"))
		Expect(fb).To(And(ContainSubstring("git_operation"), ContainSubstring("search_tools"), ContainSubstring("run_command")))
	})

	It("never shows FINAL_REPORT_NOT_STORED to the model when a store exists, and saves one report", func() {
		st := store.NewRunStore()
		e := scripted(calls(call("workspace_list", "l")), text("Inspected."))
		e.store = st
		r := e.start(baseRequest("run-store"))
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
		Expect(st.FinalReportHistory()).To(HaveLen(1))
		rep := decodeJSON(st.FinalReport("run-store"))
		Expect(rep["content"]).To(Equal("Inspected."))
		Expect(rep["taskId"]).To(Equal("task-test"))
		Expect(e.eventsOf(run.EventCompletionRejected)).To(BeEmpty())
	})

	It("fails PERSISTENCE_ERROR without another model turn when the final report save commits then throws", func() {
		inner := store.NewRunStore()
		m := model.NewScripted([]model.Round{calls(call("workspace_list", "l")), text("Inspected."), text("unused")})
		e := newEnv(m)
		e.store = store.NewFailingRunStore(inner, store.Fault{Op: store.OpReport, Nth: 1, Committed: true})
		r := e.start(baseRequest("run-report-fail"))
		Expect(r.ErrorCode).To(Equal(run.CodePersistenceError))
		Expect(r.ErrorMessage).To(HavePrefix("Final report persistence failed: "))
		Expect(inner.CheckpointReasons()).To(Equal([]string{"failure"}))
		Expect(m.RequestCount()).To(Equal(2))
	})

	It("requires persistence when asked and no store exists", func() {
		t := true
		req := baseRequest("run-no-store")
		req.Completion = &prompt.Completion{RequireFinalReportPersistence: &t}
		r := scripted(calls(call("workspace_list", "l")), text("Inspected.")).start(req)
		Expect(r.ErrorMessage).To(Equal("Final report persistence is required, but the host did not configure a run store."))
	})

	DescribeTable("a trace that cannot be finalized ends PERSISTENCE_ERROR mentioning TRACE_NOT_FINALIZED",
		func(fault store.Fault) {
			m := model.NewScripted([]model.Round{calls(call("workspace_list", "l")), text("Inspected."), text("unused")})
			e := newEnv(m)
			e.trace = store.NewFailingTrace(store.NewTrace(), fault)
			req := baseRequest("run-trace-fail")
			req.Budget.MaxCompletionRejections = run.N(1)
			r := e.start(req)
			Expect(r.ErrorCode).To(Equal(run.CodePersistenceError))
			Expect(r.ErrorMessage).To(ContainSubstring("TRACE_NOT_FINALIZED"))
			Expect(m.RequestCount()).To(Equal(2))
		},
		Entry("flush failure", store.Fault{Op: store.OpFlush, Nth: 1}),
		Entry("an earlier emit failure", store.Fault{Op: store.OpAppend, Nth: 1}),
	)

	It("fails MAX_TURNS when the turns run out", func() {
		req := baseRequest("run-turns")
		req.Budget.MaxTurns = run.N(2)
		r := scripted(calls(call("workspace_list", "a")), calls(call("workspace_list", "b")), text("late")).start(req)
		Expect(r.ErrorCode).To(Equal(run.CodeMaxTurns))
		Expect(r.ErrorMessage).To(Equal("AI Coder reached maxTurns=2."))
	})

	It("treats a required open criterion as model-fixable", func() {
		req := baseRequest("run-criteria")
		req.AcceptanceCriteria = []prompt.Criterion{{ID: "ac-1", Text: "Invalid e-mail is rejected"}}
		req.Budget.MaxCompletionRejections = run.N(1)
		e := scripted(calls(call("workspace_list", "l")), text("Done."))
		r := e.start(req)
		Expect(r.ErrorCode).To(Equal(run.CodeNoProgress))
		Expect(strings.Join(e.eventsOf(run.EventCompletionRejected)[0].Issues, "")).To(Equal("ACCEPTANCE_CRITERIA_OPEN: Open criterion ids: ac-1."))
	})
})
