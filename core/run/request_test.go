package run_test

import (
	"math"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/prompt"
	"github.com/galaxy-stack/conform/core/run"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func requestError(err error) *run.RequestError {
	re, ok := err.(*run.RequestError)
	Expect(ok).To(BeTrue(), "want a *run.RequestError, got %v", err)
	return re
}

var _ = Describe("request validation and budget (RUNTIME §4, §5)", func() {
	It("refuses legacy prompt fields first", func() {
		_, err := run.DecodeRequest([]byte(`{"systemPrompt":"x","unknownThing":1}`))
		Expect(requestError(err).Message).To(Equal("systemPrompt is no longer accepted; provide the structured prompt configuration."))
		Expect(requestError(err).Kind).To(Equal("TypeError"))
	})

	DescribeTable("JSON request messages",
		func(doc, message string) {
			_, err := run.DecodeRequest([]byte(doc))
			Expect(requestError(err).Message).To(Equal(message))
		},
		Entry("unknown field", `{"goal":"g","nope":1}`, "Run request contains unknown field nope."),
		Entry("blank goal", `{"goal":" ","runId":"r","taskId":"t","workspaceRoot":"/w"}`, "goal must be a non-empty string."),
		Entry("bad mode", `{"goal":"g","runId":"r","taskId":"t","workspaceRoot":"/w","mode":"x"}`, "mode is invalid."),
		Entry("no prompt", `{"goal":"g","runId":"r","taskId":"t","workspaceRoot":"/w"}`, "prompt must be a structured configuration object."),
		Entry("bad agent profile", `{"goal":"g","runId":"r","taskId":"t","workspaceRoot":"/w","prompt":{"agentProfile":"x"}}`, "Invalid agent profile."),
		Entry("unknown prompt key", `{"goal":"g","runId":"r","taskId":"t","workspaceRoot":"/w","prompt":{"zzz":1}}`, "prompt contains unknown field zzz."),
		Entry("bad approval profile", `{"goal":"g","runId":"r","taskId":"t","workspaceRoot":"/w","prompt":{"approvalProfile":"x"}}`, "prompt.approvalProfile is invalid."),
		Entry("oversized context data", `{"goal":"g","runId":"r","taskId":"t","workspaceRoot":"/w","prompt":{},"contextData":[{"source":"s"}]}`, "Invalid or oversized context data."),
		Entry("interactive command", `{"goal":"g","runId":"r","taskId":"t","workspaceRoot":"/w","prompt":{"approvalProfile":"balanced","complexity":"standard","networkAccess":"denied","writeAccess":"allowed",
			"hostEnvironment":{"architecture":"arm64","operatingSystem":"darwin","command":{"argumentsPrefix":["-c"],"commandMode":"shell_string","executable":"/bin/zsh","interactive":true,"pathStyle":"posix","shell":"zsh","stdin":"closed","tty":false}}}}`,
			"prompt.hostEnvironment.command is malformed."),
	)

	It("reports the first unknown key in the caller's key order, as the original does", func() {
		_, err := run.DecodeRequest([]byte(`{"zeta":1,"goal":"g","alpha":2}`))
		Expect(requestError(err).Message).To(Equal("Run request contains unknown field zeta."))
	})

	It("refuses text that is not one JSON object as a TypeError", func() {
		for _, doc := range []string{`{"goal":`, `[1]`} {
			_, err := run.DecodeRequest([]byte(doc))
			Expect(requestError(err).Kind).To(Equal("TypeError"), doc)
		}
		_, err := run.DecodeRequest([]byte(`[1]`))
		Expect(requestError(err).Message).To(Equal("Run request must be an object."))
	})

	It("decodes the budget for Start and refuses a budget member of the wrong JSON type", func() {
		valid := `{"goal":"g","runId":"run-json-budget","taskId":"t","workspaceRoot":"/w",` +
			`"prompt":{"approvalProfile":"balanced","complexity":"standard","networkAccess":"denied","writeAccess":"allowed"},`
		req, err := run.DecodeRequest([]byte(valid + `"budget":{"maxTurns":0}}`))
		Expect(err).NotTo(HaveOccurred())
		Expect(req.Budget).NotTo(BeNil())
		Expect(*req.Budget.MaxTurns).To(BeEquivalentTo(0))
		_, err = run.New(newEnv(newFnModel()).deps()).Start(req)
		Expect(requestError(err).Message).To(Equal("maxTurns must be a positive finite number."))
		Expect(requestError(err).Kind).To(Equal("RangeError"))

		typed := baseRequest("run-raw-budget")
		typed.Budget, typed.Request.Budget = nil, []byte(`{"maxTurns":0}`)
		_, err = run.New(newEnv(newFnModel()).deps()).Start(typed)
		Expect(requestError(err).Message).To(Equal("maxTurns must be a positive finite number."), "a nil Budget reads the embedded JSON budget")

		_, err = run.DecodeRequest([]byte(valid + `"budget":{"maxTurns":"5"}}`))
		Expect(requestError(err).Kind).To(Equal("TypeError"))
		Expect(requestError(err).Message).To(HavePrefix("Run request has a malformed member: "))
	})

	It("checks typed requests with the same rules", func() {
		c := run.New(newEnv(newFnModel()).deps())
		req := baseRequest("run-dup-criteria")
		req.AcceptanceCriteria = []prompt.Criterion{{ID: "a", Text: "x"}, {ID: "a", Text: "y"}}
		_, err := c.Start(req)
		Expect(requestError(err).Message).To(Equal("acceptanceCriteria ids must be unique."))
		req = baseRequest("run-plan")
		req.PlanMode = true
		_, err = c.Start(req)
		Expect(requestError(err).Message).To(Equal("planMode is not supported by this port."), "plan mode is deferred by name (DECISIONS 15)")
		req = baseRequest("")
		_, err = c.Resume(req)
		Expect(requestError(err).Message).To(Equal("runId must be a non-empty string."), "a resume request must name its run")
	})

	It("refuses a second active run with the same ID", func() {
		e := newEnv(newFnModel())
		block := make(chan struct{})
		e.exec = newExec()
		e.exec.set("workspace_list", func(c portCall) (portResult, error) { <-block; return ok("workspace_list", nil), nil })
		e.model = newFnModel(roundCalls("workspace_list", "c1"))
		c := e.controller()
		h, err := c.Start(baseRequest("run-same"))
		Expect(err).NotTo(HaveOccurred())
		_, err = c.Start(baseRequest("run-same"))
		Expect(requestError(err).Message).To(Equal("AI Coder run run-same is already active."))
		Expect(requestError(err).Kind).To(Equal("Error"))
		close(block)
		wait(h)
	})

	It("applies the original defaults", func() {
		b, err := run.NormalizeBudget(nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(b.DeadlineMs).To(Equal(int64(1800000)))
		Expect(b.MaxTurns).To(Equal(48))
		Expect(b.MaxToolCalls).To(Equal(256))
		Expect(b.MaxModelRetries).To(Equal(3))
		Expect(b.ModelRetryDelaysMs).To(Equal([]int64{1000, 3000, 8000}))
		Expect(b.MaxCompletionRejections).To(Equal(3))
		Expect(b.MaxNoProgressEpisodes).To(Equal(2))
		Expect(b.ObservationNudgeThresholds).To(Equal([]int64{3, 5, 8}))
		Expect(b.PersistenceGraceMs).To(Equal(int64(10000)))
		Expect(b.ToolOutputMaxBytes).To(Equal(48000))
		Expect(b.NoProgressPolicy).To(Equal("advisory"))
	})

	It("floors positive numbers and allows zero retries", func() {
		b, err := run.NormalizeBudget(&run.BudgetInput{MaxTurns: run.N(1.9), MaxModelRetries: run.N(0)})
		Expect(err).NotTo(HaveOccurred())
		Expect(b.MaxTurns).To(Equal(1))
		Expect(b.MaxModelRetries).To(Equal(0))
	})

	DescribeTable("invalid retry delay lists throw at start",
		func(delays []float64) {
			req := withRetries(baseRequest("run-bad-delays"), 1, delays...)
			if delays == nil {
				req.Budget.ModelRetryDelaysMs = []float64{}
			}
			_, err := run.New(newEnv(newFnModel()).deps()).Start(req)
			Expect(requestError(err).Message).To(ContainSubstring("modelRetryDelaysMs"))
			Expect(requestError(err).Kind).To(Equal("RangeError"))
		},
		Entry("empty", nil), Entry("zero", []float64{0}), Entry("negative", []float64{10, -5}),
		Entry("fractional", []float64{10, 1.5}), Entry("too long a delay", []float64{10, 700000}),
		Entry("nine entries", []float64{1, 2, 3, 4, 5, 6, 7, 8, 9}),
	)

	DescribeTable("other budget errors",
		func(in run.BudgetInput, message string) {
			_, err := run.NormalizeBudget(&in)
			Expect(requestError(err).Message).To(Equal(message))
		},
		Entry("maxTurns 0", run.BudgetInput{MaxTurns: run.N(0)}, "maxTurns must be a positive finite number."),
		Entry("infinite deadline", run.BudgetInput{DeadlineMs: run.N(math.Inf(1))}, "deadlineMs must be a positive finite number."),
		Entry("negative retries", run.BudgetInput{MaxModelRetries: run.N(-1)}, "maxModelRetries must be a non-negative finite number."),
		Entry("policy", run.BudgetInput{NoProgressPolicy: "aggressive"}, `noProgressPolicy must be "advisory" or "strict"; received aggressive.`),
		Entry("duplicate thresholds", run.BudgetInput{ObservationNudgeThresholds: []float64{3, 3}}, "observationNudgeThresholds must not contain duplicate threshold 3."),
		Entry("threshold 1", run.BudgetInput{ObservationNudgeThresholds: []float64{1}}, "observationNudgeThresholds entries must be integers >= 2; received 1."),
		Entry("tool output", run.BudgetInput{ToolOutput: &run.ToolOutputBudget{MaxBytes: run.N(0)}}, "toolOutput.maxBytes must be a positive finite number."),
	)

	It("refuses an active command.run without a concrete host environment before any model request", func() {
		m := newFnModel()
		e := newEnv(m)
		e.exec = newExec(append(defaultTools(), testTool{name: "run_command", canonical: "command.run", caps: []string{"approval", "state_version", "write"}})...)
		req := baseRequest("run-command-env")
		req.Prompt.HostEnvironment = nil
		r := e.start(req)
		Expect(r.ErrorCode).To(Equal(run.CodeCapabilityMismatch))
		Expect(r.ErrorMessage).To(Equal("An active command.run tool requires a concrete hostEnvironment.command interpreter and shell dialect."))
		Expect(m.requestCount()).To(Equal(0))
	})

	It("refuses a model without verified streaming and tool calling", func() {
		m := newFnModel()
		m.caps.Streaming = "unknown"
		r := newEnv(m).start(baseRequest("run-caps"))
		Expect(r.ErrorCode).To(Equal(run.CodeCapabilityMismatch))
		Expect(r.ErrorMessage).To(Equal("The selected model has not verified streaming and tool-calling support."))
	})
})

// maxSafeInteger is JavaScript's Number.MAX_SAFE_INTEGER, 2^53 - 1.
const maxSafeInteger = 1<<53 - 1

// startsWith starts a run of req on a fresh controller whose model answers
// with a report, waits for it, and returns Start's error.
func startsWith(req run.Request) error {
	e := newEnv(newFnModel([]port.RoundEvent{started(), doneText("Done.")}))
	h, err := e.controller().Start(req)
	if err == nil {
		wait(h)
	}
	return err
}

func withDelays(delays ...float64) run.Request {
	req := baseRequest("run-delay-bounds")
	req.Budget.ModelRetryDelaysMs = delays
	return req
}

func withThresholds(thresholds ...float64) run.Request {
	req := baseRequest("run-threshold-bounds")
	req.Budget.ObservationNudgeThresholds = thresholds
	return req
}

var _ = Describe("budget bounds at their edges (RUNTIME §5)", func() {
	It("starts with retry delays of exactly 1 and 600000 ms, and refuses 600001", func() {
		Expect(startsWith(withDelays(1, 600000))).To(Succeed())
		err := startsWith(withDelays(1, 600001))
		Expect(requestError(err).Message).To(Equal("modelRetryDelaysMs entries must be integers between 1 and 600000; index 1 received 600001."))
		err = startsWith(withDelays(0.5))
		Expect(requestError(err).Message).To(Equal("modelRetryDelaysMs entries must be integers between 1 and 600000; index 0 received 0.5."))
	})

	It("starts with exactly 8 retry delays", func() {
		Expect(startsWith(withDelays(1, 2, 3, 4, 5, 6, 7, 8))).To(Succeed())
		err := startsWith(withDelays(1, 2, 3, 4, 5, 6, 7, 8, 9))
		Expect(requestError(err).Message).To(Equal("modelRetryDelaysMs must contain between 1 and 8 delays."))
	})

	It("starts with exactly 8 nudge thresholds, and refuses 9", func() {
		Expect(startsWith(withThresholds(2, 3, 4, 5, 6, 7, 8, 9))).To(Succeed())
		err := startsWith(withThresholds(2, 3, 4, 5, 6, 7, 8, 9, 10))
		Expect(requestError(err).Message).To(Equal("observationNudgeThresholds must contain at most 8 thresholds."))
	})

	It("starts with a nudge threshold of Number.MAX_SAFE_INTEGER, and refuses the next integer", func() {
		Expect(startsWith(withThresholds(2, maxSafeInteger))).To(Succeed())
		err := startsWith(withThresholds(2, maxSafeInteger+1))
		Expect(requestError(err).Message).To(Equal("observationNudgeThresholds entries must be integers >= 2; received 9007199254740992."))
		Expect(requestError(err).Kind).To(Equal("RangeError"))
	})

})

var _ = Describe("batch preflight against maxToolCalls (RUNTIME §13 step 5)", func() {
	// batchOfTwo runs a first round of two workspace_list calls, then a
	// report, under maxToolCalls.
	batchOfTwo := func(id string, maxToolCalls float64) (*env, run.Result) {
		e := scripted(calls(argCall("workspace_list", "l1", map[string]any{"path": "src"}), argCall("workspace_list", "l2", map[string]any{"path": "lib"})),
			text("Inspected."))
		req := baseRequest(id)
		req.Budget.MaxToolCalls = run.N(maxToolCalls)
		return e, e.start(req)
	}

	It("dispatches a batch that uses exactly the remaining tool calls", func() {
		e, r := batchOfTwo("run-batch-exact-budget", 2)
		Expect(r.ErrorCode).NotTo(Equal(run.CodeMaxToolCalls), r.ErrorMessage)
		Expect(e.exec.names()).To(Equal([]string{"workspace_list", "workspace_list"}))
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
	})

	It("refuses a batch one call over the remaining tool calls before dispatching any", func() {
		e, r := batchOfTwo("run-batch-over-budget", 1)
		Expect(r.ErrorCode).To(Equal(run.CodeMaxToolCalls))
		Expect(r.ErrorMessage).To(Equal("AI Coder reached maxToolCalls=1."))
		Expect(e.exec.names()).To(BeEmpty())
	})
})
