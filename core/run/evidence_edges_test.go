package run_test

import (
	"sync"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/doubles/model"
	"github.com/galaxy-stack/conform/doubles/store"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// validationsByCall answers project_validate with the validation scripted
// for each call ID.
func validationsByCall(byID map[string]port.ValidationEntry) func(port.ToolCall) (port.ToolResult, error) {
	return func(c port.ToolCall) (port.ToolResult, error) {
		return ok("project_validate", &port.Effects{Validations: []port.ValidationEntry{byID[c.ToolCallID]}}), nil
	}
}

// failedWriteRun runs three failed writes of src/a.ts, each with other
// content; moveState, when set,
// changes the workspace fingerprint before each failure. It returns the
// model's requests.
func failedWriteRun(runID string, moveState bool) []port.RoundRequest {
	var rounds []model.Round
	for i := range 3 {
		rounds = append(rounds, calls(argCall("workspace_write", "w-"+itoa(i), map[string]any{"path": "src/a.ts", "content": "attempt " + itoa(i)})))
	}
	m := model.NewScripted(append(rounds, text("Stopped after the failed writes.")))
	e := newEnv(m)
	v := newVerifier()
	e.verifier = v
	var mu sync.Mutex
	n := 0
	e.exec.set("workspace_write", func(port.ToolCall) (port.ToolResult, error) {
		if moveState {
			mu.Lock()
			n++
			i := n
			mu.Unlock()
			v.mu.Lock()
			v.fingerprint = "sha256:workspace-state-" + itoa(i)
			v.mu.Unlock()
		}
		return failed("workspace_write", "STALE_HASH"), nil
	})
	e.start(baseRequest(runID))
	return m.Requests()
}

var _ = Describe("run evidence at its edges (RUNTIME §16–§18)", func() {
	It("clears only the open problem a passing validation supersedes, keeping the others", func() {
		e := scripted(calls(call("project_validate", "v1")), calls(call("project_validate", "v2")),
			calls(call("project_validate", "v3")), text("never"))
		e.onEvent = pauseAfter("v3")
		e.verifier = newVerifier()
		e.exec.set("project_validate", validationsByCall(map[string]port.ValidationEntry{
			"v1": {ID: "unit", Detail: "unit tests fail", Scope: "workspace", Status: "failed"},
			"v2": {ID: "lint", Detail: "lint fails", Scope: "workspace", Status: "failed"},
			"v3": {ID: "unit", Detail: "unit tests pass", Scope: "workspace", Status: "passed"},
		}))
		r := e.start(baseRequest("run-open-problems"))
		Expect(r.Status).To(Equal(run.StatusPaused), r.ErrorMessage)
		Expect(r.Checkpoint.OpenProblems).To(Equal([]string{"lint fails"}))
	})

	It("counts failed writes of one path per workspace state the verifier captured after each failure (§18.3)", func() {
		const incident = "workspace_write failed 3 times against the same path and workspace state"
		same := failedWriteRun("run-failed-writes-same-state", false)
		Expect(len(same)).To(BeNumerically(">=", 4))
		Expect(requestText(same[3])).To(ContainSubstring(incident))
		moved := failedWriteRun("run-failed-writes-moved-state", true)
		Expect(len(moved)).To(BeNumerically(">=", 4))
		Expect(requestText(moved[3])).NotTo(ContainSubstring(incident))
	})

	It("traces the no-progress recovery turn it grants (§18.6, §26.3)", func() {
		tr := store.NewTrace()
		e := readEnv(append(repeatRounds(3, "read_file", "r", map[string]any{"path": "src/a.ts"}), text("Finished with the retained evidence."))...)
		e.trace = tr
		r := e.start(withBudget(baseRequest("run-recovery-trace"), run.BudgetInput{MaxCompletionRejections: run.N(3), MaxNoProgressEpisodes: run.N(1),
			MaxObservationRepeats: run.N(2), MaxRepeatedToolRequests: run.N(2), MaxModelRetries: run.N(0), MaxToolCalls: run.N(20), MaxTurns: run.N(12),
			NoProgressPolicy: "strict"}))
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
		Expect(policyDecisions(tr)).To(ContainElement("no_progress_recovery_turn"))
	})

	It("keeps the argument digest in canonical JSON, without HTML escapes", func() {
		e := scripted(calls(argCall("workspace_list", "l", map[string]any{"path": "src/a<b>&c.ts"})), text("never"))
		e.onEvent = pauseAfter("l")
		r := e.start(baseRequest("run-argument-digest"))
		Expect(r.Status).To(Equal(run.StatusPaused), r.ErrorMessage)
		Expect(r.Checkpoint.LastToolCalls[0].ArgumentDigest).To(Equal(`{"path":"src/a<b>&c.ts"}`))
	})

	It("ends a cancelled run with the caller's reason", func() {
		e := scripted(calls(call("workspace_list", "l")), text("never"))
		e.onEvent = func(c *run.Controller, ev run.Event) {
			if ev.Type == run.EventToolResult {
				c.Cancel(ev.RunID, "the caller stopped the spec")
			}
		}
		r := e.start(baseRequest("run-cancel-reason"))
		Expect(r.Status).To(Equal(run.StatusCancelled))
		Expect(r.Transitions[len(r.Transitions)-1].Reason).To(Equal("the caller stopped the spec"))
	})

	It("treats an empty path as neither churning nor generated", func() {
		Expect(run.IsChurningPath(nil)).To(BeFalse())
		Expect(run.IsChurningPath([]string{})).To(BeFalse())
		Expect(run.IsGeneratedPath(nil)).To(BeFalse())
		Expect(run.IsGeneratedPath([]string{})).To(BeFalse())
	})
})
