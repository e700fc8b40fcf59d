package run_test

import (
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/prompt"
	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/doubles/model"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("the task mode's validation default (CONTRACTS §3.1, RUNTIME §20.3)", func() {
	const missing = "VALIDATION_MISSING: A successful validation result is required."

	// inspectThenReport runs mode with an inspection and a final report, and
	// with a validation first when validate is true.
	inspectThenReport := func(mode string, requireValidation *bool, validate bool) (run.Result, []string) {
		rounds := []model.Round{calls(call("workspace_list", "l"))}
		if validate {
			rounds = append(rounds, calls(call("project_validate", "v")))
		}
		e := scripted(append(rounds, text("Done."), text("Done again."))...)
		e.verifier = newVerifier()
		req := baseRequest("run-mode-" + mode)
		req.Mode = mode
		req.Budget.MaxCompletionRejections = run.N(1)
		if requireValidation != nil {
			req.Completion = &prompt.Completion{RequireValidation: requireValidation}
		}
		r := e.start(req)
		var issues []string
		for _, ev := range e.eventsOf(run.EventCompletionRejected) {
			issues = append(issues, ev.Issues...)
		}
		return r, issues
	}

	It("requires a successful validation in validate_only when the request leaves requireValidation unset", func() {
		r, issues := inspectThenReport(port.ModeValidateOnly, nil, false)
		Expect(r.ErrorCode).To(Equal(run.CodeNoProgress))
		Expect(issues).To(Equal([]string{missing}))
	})

	It("completes a validate_only run that validated", func() {
		r, issues := inspectThenReport(port.ModeValidateOnly, nil, true)
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
		Expect(issues).To(BeEmpty())
	})

	It("lets an explicit requireValidation false win over the validate_only default", func() {
		no := false
		r, issues := inspectThenReport(port.ModeValidateOnly, &no, false)
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
		Expect(issues).To(BeEmpty())
	})

	DescribeTable("defaults requireValidation to false in the other modes",
		func(mode string) {
			r, issues := inspectThenReport(mode, nil, false)
			Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
			Expect(issues).To(BeEmpty())
		},
		Entry(nil, port.ModeAuto), Entry(nil, port.ModeReviewOnly), Entry(nil, port.ModeScaffold), Entry(nil, port.ModeRefactor),
	)
})
