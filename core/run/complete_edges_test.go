package run_test

import (
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/prompt"
	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/doubles/store"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// completionGateIssues is the issues member of each completion_gate trace
// event of tr, decoded.
func completionGateIssues(tr *store.Trace) []any {
	var out []any
	for _, ev := range tr.Events() {
		if ev.Kind == port.TraceCompletionGate {
			out = append(out, decodeJSON(ev.Payload)["issues"])
		}
	}
	return out
}

var _ = Describe("the completion gate at its edges (RUNTIME §20)", func() {
	It("traces an empty issue list, not null, for a completion that passes", func() {
		tr := store.NewTrace()
		e := scripted(calls(call("workspace_list", "l")), text("Inspected and reported."))
		e.trace = tr
		r := e.start(baseRequest("run-gate-trace-pass"))
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
		Expect(completionGateIssues(tr)).To(Equal([]any{[]any{}}))
	})

	It("traces the issues of a refused completion", func() {
		tr := store.NewTrace()
		e := scripted(calls(call("workspace_list", "l")), text("Reported without validation."))
		e.trace = tr
		req := baseRequest("run-gate-trace-refused")
		yes := true
		req.Completion = &prompt.Completion{RequireValidation: &yes}
		req.Budget.MaxCompletionRejections = run.N(1)
		r := e.start(req)
		Expect(r.ErrorCode).To(Equal(run.CodeNoProgress), r.ErrorMessage)
		issues := completionGateIssues(tr)
		Expect(issues).To(HaveLen(1))
		Expect(issues[0]).NotTo(BeEmpty())
	})

	It("announces the transition to completed as a state event", func() {
		e := scripted(calls(call("workspace_list", "l")), text("Inspected and reported."))
		r := e.start(baseRequest("run-gate-state-event"))
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
		states := e.eventsOf(run.EventState)
		Expect(states).NotTo(BeEmpty())
		last := states[len(states)-1].Transition
		Expect(last).NotTo(BeNil())
		Expect(last.To).To(Equal(run.StateCompleted))
		Expect(transitions(r)[len(r.Transitions)-1]).To(HaveSuffix("->" + run.StateCompleted))
	})

	It("tells fetched, search-only and unsupported URLs apart in a rejection, its sources sorted by kind, URL and call", func() {
		sources := map[string][]port.ResearchSource{
			"f": {searched("https://b.example/page", "b listed"), fetched("https://b.example/page", "b read"), searched("https://a.example/doc", "a listed")},
		}
		e := scripted(calls(argCall("research_fetch", "f", map[string]any{})), text("See https://b.example/page and https://c.example/other."))
		e.exec.tools = append(e.exec.tools, researchTool(sources))
		req := baseRequest("run-gate-research-evidence")
		yes := true
		req.Completion = &prompt.Completion{RequireValidation: &yes}
		req.Budget.MaxCompletionRejections = run.N(1)
		r := e.start(req)
		Expect(r.ErrorCode).To(Equal(run.CodeNoProgress), r.ErrorMessage)
		rejected := e.eventsOf(run.EventCompletionRejected)
		Expect(rejected).To(HaveLen(1))
		ev := rejected[0].ResearchEvidence
		Expect(ev).NotTo(BeNil())
		Expect(ev.FetchedURLs).To(Equal([]string{"https://b.example/page"}))
		Expect(ev.SearchOnlyURLs).To(Equal([]string{"https://a.example/doc"}))
		Expect(ev.UnsupportedCitations).To(Equal([]string{"https://c.example/other"}))
		var keys []string
		for _, s := range ev.Sources {
			keys = append(keys, s.Kind+" "+s.URL)
		}
		Expect(keys).To(Equal([]string{"fetch https://b.example/page", "search https://a.example/doc", "search https://b.example/page"}))
	})
})
