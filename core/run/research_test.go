package run_test

import (
	"fmt"

	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/prompt"
	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/doubles/model"
	"github.com/galaxy-stack/conform/doubles/store"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// researchTool is a research.fetch tool that answers each call with the
// sources scripted for its call ID.
func researchTool(sources map[string][]port.ResearchSource) testTool {
	return testTool{name: "research_fetch", canonical: "research.fetch", caps: []string{"approval", "research"},
		handle: func(c port.ToolCall) (port.ToolResult, error) {
			return ok("research.fetch", &port.Effects{ResearchSources: sources[c.ToolCallID]}), nil
		}}
}

func fetched(url, summary string) port.ResearchSource {
	return port.ResearchSource{Kind: "fetch", URL: url, Summary: summary, ContentHash: sp("sha256:" + summary)}
}

func searched(url, summary string) port.ResearchSource {
	return port.ResearchSource{Kind: "search", URL: url, Summary: summary, ContentHash: nil}
}

// researchOnFailure runs e to a NO_PROGRESS failure (its report is
// rejected for a missing validation) and returns the research sources of
// the failure checkpoint the store acknowledged.
func researchOnFailure(e *env, runID string) []checkpoint.ResearchSource {
	st := store.NewRunStore()
	e.store = st
	req := baseRequest(runID)
	yes := true
	req.Completion = &prompt.Completion{RequireValidation: &yes}
	req.Budget.MaxCompletionRejections = run.N(1)
	r := e.start(req)
	Expect(r.ErrorCode).To(Equal(run.CodeNoProgress), r.ErrorMessage)
	Expect(r.Checkpoint).NotTo(BeNil())
	Expect(string(r.Checkpoint.Reason)).To(Equal("failure"))
	cps := storedCheckpoints(st)
	Expect(cps[len(cps)-1].ResearchSources).To(Equal(r.Checkpoint.ResearchSources))
	return r.Checkpoint.ResearchSources
}

// sourceKey is a kept source as kind, URL and the call that stamped it.
func sourceKey(s checkpoint.ResearchSource) string {
	return fmt.Sprintf("%s %s %s", s.Kind, s.URL, s.ToolCallID)
}

var _ = Describe("research evidence (RUNTIME §16.6, CONTRACTS §7.7 step 7)", func() {
	It("deduplicates by (kind, URL without fragment), replaces only changed evidence, stamps sequence and call, keeps the last 24", func() {
		var many []port.ResearchSource
		for i := range 22 {
			many = append(many, searched(fmt.Sprintf("https://many.example/%02d", i), fmt.Sprintf("hit %d", i)))
		}
		sources := map[string][]port.ResearchSource{
			"r1": {fetched("https://a.example/doc#intro", "a"), searched("https://a.example/doc", "a listed"), fetched("https://b.example/", "b")},
			// Same keys: a unchanged (other fragment) stays stamped r1; b changed is replaced and stamped r2.
			"r2": {fetched("https://a.example/doc#usage", "a"), fetched("https://b.example/#top", "b, revised")},
			"r3": many,
		}
		e := scripted(calls(call("workspace_list", "l"), model.ToolCall{ToolCallID: "r1", ToolName: "research_fetch", Arguments: map[string]any{}}),
			calls(model.ToolCall{ToolCallID: "r2", ToolName: "research_fetch", Arguments: map[string]any{"again": true}}),
			calls(model.ToolCall{ToolCallID: "r3", ToolName: "research_fetch", Arguments: map[string]any{"many": true}}),
			text("Researched."))
		e.exec.tools = append(e.exec.tools, researchTool(sources))
		kept := researchOnFailure(e, "run-research-merge")
		Expect(kept).To(HaveLen(24))
		var keys []string
		for _, s := range kept {
			keys = append(keys, sourceKey(s))
		}
		want := []string{"search https://a.example/doc r1", "fetch https://b.example/ r2"}
		for i := range 22 {
			want = append(want, fmt.Sprintf("search https://many.example/%02d r3", i))
		}
		Expect(keys).To(Equal(want), "the oldest source (the first fetch of a.example) is dropped at 25")

		Expect(kept[1].Summary).To(Equal("b, revised"))
		seq := map[string]int64{}
		for _, s := range kept {
			if old, seen := seq[s.ToolCallID]; seen {
				Expect(s.Sequence).To(Equal(old), "one sequence per call")
			}
			seq[s.ToolCallID] = s.Sequence
		}
		Expect(seq["r1"]).To(BeNumerically("<", seq["r2"]))
		Expect(seq["r2"]).To(BeNumerically("<", seq["r3"]))
	})

	It("keeps the unchanged record with its first sequence and call when a later call reports it again", func() {
		sources := map[string][]port.ResearchSource{
			"r1": {fetched("https://a.example/doc#intro", "a")},
			"r2": {fetched("https://a.example/doc", "a"), fetched("https://a.example/other", "other")},
		}
		e := scripted(calls(call("workspace_list", "l"), model.ToolCall{ToolCallID: "r1", ToolName: "research_fetch", Arguments: map[string]any{}}),
			calls(model.ToolCall{ToolCallID: "r2", ToolName: "research_fetch", Arguments: map[string]any{"again": true}}),
			text("Researched."))
		e.exec.tools = append(e.exec.tools, researchTool(sources))
		kept := researchOnFailure(e, "run-research-keep")
		Expect(kept).To(HaveLen(2))
		Expect(sourceKey(kept[0])).To(Equal("fetch https://a.example/doc r1"))
		Expect(sourceKey(kept[1])).To(Equal("fetch https://a.example/other r2"))
		Expect(kept[0].Sequence).To(BeNumerically("<", kept[1].Sequence))
	})
})
