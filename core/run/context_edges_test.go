package run_test

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/prompt"
	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/doubles/model"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var providerCount = regexp.MustCompile(`^Provider token count (\d+) remains above hard input \d+ after compaction\.$`)

// overflowCount runs an inspection whose first round reports a provider
// input far above the estimate (the estimator calibrates to its maximum
// factor) against a small context window, so that the second round's
// estimated count overflows even after the forced compaction, and returns
// that count. extra tools are added to the default ones.
func overflowCount(runID string, extra ...testTool) int {
	GinkgoHelper()
	huge := 1_000_000
	m := newFnModel([]port.RoundEvent{started(), callEvent("workspace_list", "l"),
		{Type: port.EventDone, StopReason: port.StopToolCalls, Usage: &port.TokenUsage{InputTokens: &huge}}},
		[]port.RoundEvent{started(), doneText("Inspected.")})
	// A window found by trying sizes: small enough that the request still
	// overflows after compaction, large enough for the prompt. A large
	// change to the prompt or the estimator can move it out of that range;
	// the spec then fails on its CONTEXT_BUDGET expectation and needs a new
	// window, not a production fix.
	window := 32000
	m.caps.ContextWindow = &window
	e := newEnv(m)
	e.exec = newExec(append(defaultTools(), extra...)...)
	r := e.start(baseRequest(runID))
	Expect(r.ErrorCode).To(Equal(run.CodeContextBudget), r.ErrorMessage)
	match := providerCount.FindStringSubmatch(r.ErrorMessage)
	Expect(match).To(HaveLen(2), r.ErrorMessage)
	n, err := strconv.Atoi(match[1])
	Expect(err).NotTo(HaveOccurred())
	return n
}

var _ = Describe("the model request at its edges (RUNTIME §11 steps 5–8, §28)", func() {
	It("lists the request's acceptance criteria in the mandatory state, not an empty list", func() {
		m := model.NewScripted([]model.Round{text("Reported.")})
		e := newEnv(m)
		req := baseRequest("run-mandatory-criteria")
		req.AcceptanceCriteria = []prompt.Criterion{{ID: "c1", Text: "the report names the inspected file"}}
		e.start(req)
		Expect(m.Requests()).NotTo(BeEmpty())
		doc := mandatoryDoc(m.Requests()[0])
		Expect(doc).NotTo(BeNil())
		Expect(doc["acceptanceCriteria"]).To(HaveLen(1))
		Expect(doc["acceptanceCriteria"].([]any)[0]).To(HaveKeyWithValue("text", "the report names the inspected file"))
	})

	It("caps a round's output at the model's own output limit when it is below the reserve", func() {
		m := model.NewScripted([]model.Round{text("Reported.")}, model.WithMaxOutputTokens(100))
		newEnv(m).start(baseRequest("run-model-output-limit"))
		Expect(m.Requests()).NotTo(BeEmpty())
		Expect(m.Requests()[0].MaxOutputTokens).To(Equal(100))
	})

	It("prices a request without a provider token counter as its messages plus its tool definitions (§11 step 7)", func() {
		base := overflowCount("run-estimated-count")
		more := overflowCount("run-estimated-count-more-tools", testTool{name: "inspect_" + strings.Repeat("x", 200),
			canonical: "workspace.inspect", caps: []string{"inspect"}})
		Expect(more).To(BeNumerically(">", base), "another tool definition adds to the estimated count")
	})
})
