package oracle

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/galaxy-stack/conform/matrix/fixture"
)

// Check returns the failed assertions of one fixture run: fx's expected
// block checked against obs as LAB §4 describes, in its order, with the
// three checks that always run (write evidence of a completed run, declared
// controls, checkpoint integrity). An empty result means the run passed.
// Every Failure carries fx.File. Check does not modify fx or obs.
func Check(fx *fixture.Fixture, obs *Observed) []Failure {
	c := &checker{fx: fx, obs: obs, exp: fx.Expected}
	if c.exp == nil {
		c.exp = &fixture.Expected{}
	}
	c.status()
	c.errorCode()
	c.exactStrings("expected.executionStatuses", c.exp.ExecutionStatuses, obs.ExecutionStatuses, "execution statuses")
	c.exactStrings("expected.toolSequence", c.exp.ToolSequence, obs.ToolSequence, "tool sequence")
	c.toolResults()
	c.files()
	c.allowedChanges()
	c.writeEvidence()
	c.finalResponse()
	c.exactStrings("expected.checkpointReasons", c.exp.CheckpointReasons, obs.CheckpointReasons(), "checkpoint reasons")
	c.completionIssues()
	c.exactStrings("expected.contextPressures", c.exp.ContextPressures, obs.ContextPressures, "context pressures")
	c.modelRequestCount()
	c.retryDelays()
	c.allModelStepsConsumed()
	c.controls()
	c.minTraceEvents()
	c.includes("expected.traceKindsInclude", c.exp.TraceKindsInclude, obs.TraceKinds, "trace kind", true,
		func(k string) string { return "Trace does not include kind '" + k + "'." })
	c.includes("expected.transitionsInclude", c.exp.TransitionsInclude, obs.Transitions, "transition", false,
		func(t string) string { return "Transitions do not include '" + t + "'." })
	c.checkpointIntegrity()
	return c.out
}

// A checker collects the failures of one Check.
type checker struct {
	fx  *fixture.Fixture
	obs *Observed
	exp *fixture.Expected
	out []Failure
}

func (c *checker) fail(assertion, expected, actual, message string) {
	c.out = append(c.out, Failure{
		File:      c.fx.File,
		Assertion: assertion,
		Expected:  expected,
		Actual:    actual,
		Message:   message,
	})
}

func (c *checker) status() {
	want := c.exp.Status
	if want == "" {
		want = fixture.StatusCompleted
	}
	if c.obs.Status != want {
		c.fail("expected.status", want, c.obs.Status,
			fmt.Sprintf("Expected status %s, received %s.", want, c.obs.Status))
	}
}

func (c *checker) errorCode() {
	if c.exp.ErrorCode == nil {
		return
	}
	want, got := c.exp.ErrorCode.Ptr(), c.obs.ErrorCode
	if !sameCode(want, got) {
		c.fail("expected.errorCode", nullable(want), nullable(got),
			fmt.Sprintf("Expected error %s, received %s.", nullable(want), nullable(got)))
	}
}

// exactStrings checks an ordered list for exact equality when it is
// declared.
func (c *checker) exactStrings(assertion string, want, got []string, what string) {
	if want == nil || slices.Equal(want, got) {
		return
	}
	c.fail(assertion, list(want), list(got),
		fmt.Sprintf("Expected %s %s, received %s.", what, js(want), js(got)))
}

func (c *checker) toolResults() {
	want, got := c.exp.ToolResults, c.obs.ToolResults
	if want == nil {
		return
	}
	if len(want) != len(got) {
		c.fail("expected.toolResults", strconv.Itoa(len(want))+" tool results", strconv.Itoa(len(got)),
			fmt.Sprintf("Expected %d tool results, received %d.", len(want), len(got)))
	}
	for i, w := range want {
		if i >= len(got) {
			break
		}
		g := got[i]
		at := fmt.Sprintf("expected.toolResults[%d].", i)
		n := i + 1
		if w.ToolName != nil && *w.ToolName != g.ToolName {
			c.fail(at+"toolName", *w.ToolName, g.ToolName, fmt.Sprintf("Tool result %d name mismatch.", n))
		}
		if w.CanonicalToolID != nil && *w.CanonicalToolID != g.CanonicalToolID {
			c.fail(at+"canonicalToolId", *w.CanonicalToolID, g.CanonicalToolID,
				fmt.Sprintf("Tool result %d canonical id mismatch.", n))
		}
		if w.OK != nil && *w.OK != g.OK {
			c.fail(at+"ok", strconv.FormatBool(*w.OK), strconv.FormatBool(g.OK),
				fmt.Sprintf("Tool result %d ok mismatch.", n))
		}
		if w.ErrorCode != nil && !sameCode(w.ErrorCode.Ptr(), g.ErrorCode) {
			c.fail(at+"errorCode", nullable(w.ErrorCode.Ptr()), nullable(g.ErrorCode),
				fmt.Sprintf("Tool result %d error code mismatch.", n))
		}
		if w.SummaryIncludes != nil && !strings.Contains(g.Summary, *w.SummaryIncludes) {
			c.fail(at+"summaryIncludes", "summary including "+text(*w.SummaryIncludes), text(g.Summary),
				fmt.Sprintf("Tool result %d summary lacks %s.", n, jsStr(*w.SummaryIncludes)))
		}
		for j, frag := range w.ContentIncludes {
			if !contentHasText(g.Content, frag) {
				c.fail(fmt.Sprintf("%scontentIncludes[%d]", at, j), "content including "+text(frag), text(g.Content),
					fmt.Sprintf("Tool result %d content lacks %s.", n, jsStr(frag)))
			}
		}
		c.contentJSON(at, n, w, g.Content)
	}
}

func (c *checker) finalResponse() {
	got := c.obs.FinalResponse
	for j, frag := range c.exp.FinalResponseIncludes {
		if !strings.Contains(got, frag) {
			c.fail(fmt.Sprintf("expected.finalResponseIncludes[%d]", j), "final response including "+text(frag), text(got),
				"Final response does not include "+jsStr(frag)+".")
		}
	}
	for j, frag := range c.exp.FinalResponseExcludes {
		if strings.Contains(got, frag) {
			c.fail(fmt.Sprintf("expected.finalResponseExcludes[%d]", j), "final response without "+text(frag), text(got),
				"Final response unexpectedly includes "+jsStr(frag)+".")
		}
	}
}

func (c *checker) completionIssues() {
	var issues []string
	for _, r := range c.obs.CompletionRejections {
		issues = append(issues, r...)
	}
	for j, frag := range c.exp.CompletionIssuesInclude {
		if !slices.ContainsFunc(issues, func(s string) bool { return strings.Contains(s, frag) }) {
			c.fail(fmt.Sprintf("expected.completionIssuesInclude[%d]", j), "a completion issue including "+text(frag),
				issueList(issues), "Completion rejection does not include "+jsStr(frag)+".")
		}
	}
}

// issueList renders completion issues, sorted and without repeats, for a
// Failure: which rejection raised an issue does not matter to the
// assertion.
func issueList(issues []string) string {
	set := slices.Clone(issues)
	slices.Sort(set)
	set = slices.Compact(set)
	parts := make([]string, len(set))
	for i, s := range set {
		parts[i] = text(s)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func (c *checker) modelRequestCount() {
	want := c.exp.ModelRequestCount
	if want == nil || *want == c.obs.ModelRequestCount {
		return
	}
	c.fail("expected.modelRequestCount", strconv.Itoa(*want), strconv.Itoa(c.obs.ModelRequestCount),
		fmt.Sprintf("Expected %d model requests, received %d.", *want, c.obs.ModelRequestCount))
}

func (c *checker) retryDelays() {
	want, got := c.exp.RetryDelaysMs, c.obs.RetryDelaysMs
	if want == nil || slices.Equal(want, got) {
		return
	}
	c.fail("expected.retryDelaysMs", ints(want), ints(got),
		fmt.Sprintf("Expected retry delays %s, received %s.", js(want), js(got)))
}

func (c *checker) allModelStepsConsumed() {
	want := c.exp.AllModelStepsConsumed
	got := c.obs.AllModelStepsConsumed(c.fx)
	if want == nil || *want == got {
		return
	}
	detail := fmt.Sprintf("(%d/%d rounds and %d/%d token-count steps)",
		c.obs.ModelRoundsConsumed, len(c.fx.Rounds), c.obs.ModelTokenCountStepsConsumed, tokenSteps(c.fx))
	c.fail("expected.allModelStepsConsumed", strconv.FormatBool(*want), strconv.FormatBool(got)+" "+detail,
		fmt.Sprintf("Expected allModelStepsConsumed=%t, received %t %s.", *want, got, detail))
}

func (c *checker) minTraceEvents() {
	want := c.exp.MinTraceEvents
	got := len(c.obs.TraceKinds)
	if want == nil || got >= *want {
		return
	}
	c.fail("expected.minTraceEvents", "at least "+strconv.Itoa(*want)+" trace events", strconv.Itoa(got),
		fmt.Sprintf("Expected at least %d trace events, received %d.", *want, got))
}

// includes checks that every wanted entry is among got. A set (asSet)
// shows got sorted and without repeats; otherwise in its order.
func (c *checker) includes(assertion string, want, got []string, what string, asSet bool, message func(string) string) {
	shown := got
	if asSet {
		shown = slices.Clone(got)
		slices.Sort(shown)
		shown = slices.Compact(shown)
	}
	for j, w := range want {
		if !slices.Contains(got, w) {
			c.fail(fmt.Sprintf("%s[%d]", assertion, j), what+" "+w, list(shown), message(w))
		}
	}
}

// sameCode compares two optional error codes; nil is null.
func sameCode(a, b *string) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}
