package run_test

import (
	"errors"

	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/faults"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/doubles/model"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// withFault runs body twice, with the core fault name off and then on, and
// returns both results: every spec below asserts the fault changes the
// outcome, so none can pass with the switch dead.
func withFault(name string, body func() any) (off, on any) {
	GinkgoHelper()
	off = body()
	undo, err := faults.Enable(name)
	Expect(err).NotTo(HaveOccurred())
	defer undo()
	on = body()
	return off, on
}

// batchOutcome is what a batch spec compares: the calls the executor saw
// and how the run ended.
type batchOutcome struct {
	Executed  []string
	ErrorCode string
	Status    string
}

func outcomeOf(e *env, r run.Result) batchOutcome {
	return batchOutcome{Executed: e.exec.names(), ErrorCode: r.ErrorCode, Status: r.Status}
}

// removal is the write evidence of deleting path.
func removal(path string, seq int64, fp string) checkpoint.Edit {
	w := write(path, seq, fp)
	w.AfterHash = nil
	return w
}

func argsCall(name, id string, args map[string]any) model.ToolCall {
	return model.ToolCall{ToolCallID: id, ToolName: name, Arguments: args}
}

var _ = Describe("core faults change the run's outcome (package core/faults)", Serial, func() {
	DescribeTable("batch preflight faults let calls run before the batch is refused (RUNTIME §13)",
		func(name string, budget float64, rounds []model.Round, want, wantOn batchOutcome) {
			off, on := withFault(name, func() any {
				e := scripted(rounds...)
				e.verifier = newVerifier()
				req := baseRequest("run-" + name)
				if budget > 0 {
					req.Budget.MaxToolCalls = run.N(budget)
				}
				return outcomeOf(e, e.start(req))
			})
			Expect(off).To(Equal(want), "fault off")
			Expect(on).To(Equal(wantOn), "fault on")
		},
		Entry(nil, faults.BatchAllowDuplicateIDs, 0.0,
			[]model.Round{calls(call("workspace_write", "a"), call("workspace_list", "a")), text("never")},
			batchOutcome{nil, run.CodeInvalidModelStream, run.StatusFailed},
			batchOutcome{[]string{"workspace_write"}, run.CodeInvalidModelStream, run.StatusFailed}),
		Entry(nil, faults.BatchAllowReusedIDs, 0.0,
			[]model.Round{calls(call("workspace_list", "a")), calls(call("workspace_write", "b"), call("workspace_list", "a")), text("never")},
			batchOutcome{[]string{"workspace_list"}, run.CodeInvalidModelStream, run.StatusFailed},
			batchOutcome{[]string{"workspace_list", "workspace_write"}, run.CodeInvalidModelStream, run.StatusFailed}),
		Entry(nil, faults.BatchSkipBudgetCheck, 2.0,
			[]model.Round{calls(call("workspace_write", "a"), call("workspace_list", "b"), call("workspace_list", "c")), text("never")},
			batchOutcome{nil, run.CodeMaxToolCalls, run.StatusFailed},
			batchOutcome{[]string{"workspace_write", "workspace_list"}, run.CodeMaxToolCalls, run.StatusFailed}),
		Entry(nil, faults.BatchSkipInactiveCheck, 0.0,
			[]model.Round{calls(call("workspace_write", "a"), call("bash", "b")), text("never")},
			batchOutcome{nil, run.CodeInvalidModelStream, run.StatusFailed},
			batchOutcome{[]string{"workspace_write", "bash"}, run.CodeToolExecution, run.StatusFailed}),
	)

	It("batch-dispatch-reversed runs a batch against its emitted order (RUNTIME §14)", func() {
		off, on := withFault(faults.BatchDispatchReversed, func() any {
			e := scripted(calls(call("workspace_list", "a"), call("project_validate", "b")), text("Done."))
			e.verifier = newVerifier()
			e.start(baseRequest("run-order"))
			return e.exec.names()
		})
		Expect(off).To(Equal([]string{"workspace_list", "project_validate"}))
		Expect(on).To(Equal([]string{"project_validate", "workspace_list"}))
	})

	It("batch-stop-after-failed-result ends the run at a structured failure (RUNTIME §14)", func() {
		off, on := withFault(faults.BatchStopAfterFailedResult, func() any {
			e := scripted(calls(call("project_validate", "a"), call("workspace_list", "b")), text("Done."))
			e.exec.set("project_validate", func(port.ToolCall) (port.ToolResult, error) { return failed("project_validate", "IO_ERROR"), nil })
			return outcomeOf(e, e.start(baseRequest("run-structured")))
		})
		Expect(off).To(Equal(batchOutcome{[]string{"project_validate", "workspace_list"}, "", run.StatusCompleted}))
		Expect(on).To(Equal(batchOutcome{[]string{"project_validate"}, run.CodeToolExecution, run.StatusFailed}))
	})

	// afterThrow runs a batch of workspace_list, whose adapter throws, and
	// a call of second, and returns the run's outcome.
	afterThrow := func(second, runID string) func() any {
		return func() any {
			e := scripted(calls(call("workspace_list", "a"), call(second, "b")), text("never"))
			e.verifier = newVerifier()
			e.exec.set("workspace_list", func(port.ToolCall) (port.ToolResult, error) { return port.ToolResult{}, errors.New("adapter exploded") })
			return outcomeOf(e, e.start(baseRequest(runID)))
		}
	}

	It("batch-continue-after-unknown-outcome dispatches the calls after an unknown outcome (RUNTIME §14)", func() {
		off, on := withFault(faults.BatchContinueAfterUnknownOutcome, afterThrow("workspace_write", "run-unknown"))
		Expect(off).To(Equal(batchOutcome{[]string{"workspace_list"}, run.CodeToolExecution, run.StatusFailed}))
		Expect(on).To(Equal(batchOutcome{[]string{"workspace_list", "workspace_write"}, run.CodeToolExecution, run.StatusFailed}))
	})

	It("unknown-outcome-as-failure lets the run go on after an adapter throw (RUNTIME §15 step 12)", func() {
		off, on := withFault(faults.UnknownOutcomeAsFailure, afterThrow("project_validate", "run-unknown-failure"))
		Expect(off).To(Equal(batchOutcome{[]string{"workspace_list"}, run.CodeToolExecution, run.StatusFailed}))
		Expect(on.(batchOutcome).Executed).To(Equal([]string{"workspace_list", "project_validate"}))
		Expect(on.(batchOutcome).ErrorCode).NotTo(Equal(run.CodeToolExecution))
	})

	It("batch-continue-after-pending-approval goes on after a pending approval instead of blocking (RUNTIME §14)", func() {
		type pendingOutcome struct {
			batchOutcome
			BlockedCode string
		}
		off, on := withFault(faults.BatchContinueAfterPendingApproval, func() any {
			e := scripted(calls(argsCall("ask", "a", map[string]any{}), call("workspace_write", "b")), text("never"))
			e.exec.tools = append(e.exec.tools, testTool{name: "ask", canonical: "ask", caps: []string{"approval"},
				handle: func(port.ToolCall) (port.ToolResult, error) {
					return ok("ask", &port.Effects{Approval: "pending", ApprovalRequestID: "req-1"}), nil
				}})
			blocked := ""
			e.onEvent = func(c *run.Controller, ev run.Event) {
				if ev.Type == run.EventToolResult && ev.Call.ToolCallID == "b" {
					if ev.Result.Error != nil {
						blocked = ev.Result.Error.Code
					}
					c.Cancel("run-pending", "the spec ends the run that waits for approval")
				}
			}
			r := e.start(baseRequest("run-pending"))
			return pendingOutcome{outcomeOf(e, r), blocked}
		})
		Expect(off).To(Equal(pendingOutcome{batchOutcome{[]string{"ask"}, run.CodeCanceled, run.StatusCancelled}, run.CodeBatchBlockedByApproval}))
		Expect(on).To(Equal(pendingOutcome{batchOutcome{[]string{"ask"}, run.CodeToolExecution, run.StatusFailed}, ""}))
	})

	// completes returns the status and error message of a run whose second
	// call, to tool, answers res.
	completes := func(tool string, res port.ToolResult) any {
		e := scripted(calls(call("workspace_list", "a")), calls(call(tool, "b")), text("Done."))
		e.verifier = newVerifier()
		e.exec.set(tool, func(port.ToolCall) (port.ToolResult, error) { return res, nil })
		r := e.start(baseRequest("run-effects"))
		return r.Status + " " + r.ErrorMessage
	}

	It("effects-skip-identity-check accepts a result naming another tool (CONTRACTS §7.7)", func() {
		off, on := withFault(faults.EffectsSkipIdentityCheck, func() any { return completes("project_validate", ok("workspace_list", nil)) })
		Expect(off).To(HavePrefix(run.StatusFailed))
		Expect(off).To(HaveSuffix("Tool result identity mismatch for project_validate; expected project_validate."))
		Expect(on).To(Equal(run.StatusCompleted + " "))
	})

	It("effects-skip-capability-check applies effects outside the tool's profile (CONTRACTS §7.7)", func() {
		forged := ok("project_validate", &port.Effects{DiffReview: &port.DiffReview{DiffHash: "sha256:forged"}})
		off, on := withFault(faults.EffectsSkipCapabilityCheck, func() any { return completes("project_validate", forged) })
		Expect(off).To(HaveSuffix("Tool project_validate produced undeclared host effects: diff_review."))
		Expect(off).To(HavePrefix(run.StatusFailed))
		Expect(on).To(Equal(run.StatusCompleted + " "))
	})

	It("effects-accept-on-failed-result lets a failed result carry write evidence (CONTRACTS §7.7)", func() {
		res := failed("workspace_write", "IO_ERROR")
		res.Effects, res.EffectsAuthority = &port.Effects{Writes: []port.Write{{Path: "src/a.ts", BeforeHash: sp("a"), AfterHash: sp("b")}}}, "host"
		off, on := withFault(faults.EffectsAcceptOnFailedResult, func() any { return completes("workspace_write", res) })
		Expect(off).To(HaveSuffix("Failed tool results may carry only a host-attested approval denial and its correlated request id."))
		Expect(on).To(Equal(run.StatusCompleted + " "))
	})

	DescribeTable("gate faults let the completion gate accept what it must refuse (RUNTIME §20)",
		func(name string, snap run.Snapshot, want []string) {
			req := run.Requirements{RequireInspection: true}
			off, on := withFault(name, func() any { return codes(run.Evaluate(req, snap)) })
			Expect(off).To(Equal(want), "fault off")
			Expect(on).To(BeNil(), "fault on: the gate accepts")
		},
		Entry(nil, faults.GateAcceptStaleDiffReview, run.Snapshot{FinalReport: "ok", InspectedWorkspace: true, FinalWorkspaceFingerprint: sp("fp2"),
			Writes:          []checkpoint.Edit{write("README.md", 1, "fp1"), write("NOTES.md", 3, "fp2")},
			FinalDiffReview: &checkpoint.DiffReview{DiffHash: "d", Sequence: 2, WorkspaceFingerprint: "fp1"}},
			[]string{"DIFF_NOT_REVIEWED"}),
		Entry(nil, faults.GateAcceptFailedValidation, run.Snapshot{FinalReport: "ok", InspectedWorkspace: true, FinalWorkspaceFingerprint: sp("fp"),
			Validations: []checkpoint.ValidationRecord{validation("unit", "failed", 1, "fp")}},
			[]string{"VALIDATION_FAILED"}),
		Entry(nil, faults.GateMissingFingerprintFresh, run.Snapshot{FinalReport: "ok", InspectedWorkspace: true,
			Validations: []checkpoint.ValidationRecord{validation("unit", "passed", 1, "fp")}},
			[]string{"WORKSPACE_EVIDENCE_STALE"}),
		Entry(nil, faults.GateWriteKeepsValidation, run.Snapshot{FinalReport: "ok", InspectedWorkspace: true, FinalWorkspaceFingerprint: sp("fp"),
			Writes:          []checkpoint.Edit{write("src/a.ts", 1, "fp"), removal("src/b.ts", 3, "fp")},
			Validations:     []checkpoint.ValidationRecord{validation("unit", "passed", 2, "fp")},
			FinalDiffReview: &checkpoint.DiffReview{DiffHash: "d", Sequence: 4, WorkspaceFingerprint: "fp"}},
			[]string{"WORKSPACE_EVIDENCE_STALE", "WRITE_NOT_VALIDATED"}),
	)

	It("gate-doc-write-voids-validation refuses a run whose only later write is documentation (RUNTIME §20.4)", func() {
		snap := run.Snapshot{FinalReport: "ok", InspectedWorkspace: true, FinalWorkspaceFingerprint: sp("fp"),
			Writes:          []checkpoint.Edit{write("src/a.ts", 1, "fp"), write("README.md", 3, "fp")},
			Validations:     []checkpoint.ValidationRecord{validation("unit", "passed", 2, "fp")},
			FinalDiffReview: &checkpoint.DiffReview{DiffHash: "d", Sequence: 4, WorkspaceFingerprint: "fp"}}
		off, on := withFault(faults.GateDocWriteVoidsValidation, func() any { return codes(run.Evaluate(run.Requirements{RequireInspection: true}, snap)) })
		Expect(off).To(BeNil())
		Expect(on).To(Equal([]string{"WORKSPACE_EVIDENCE_STALE", "WRITE_NOT_VALIDATED"}))
	})
})
