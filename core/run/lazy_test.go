package run_test

import (
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/doubles/store"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// systemTexts returns the contents of the system messages of req, in order.
func systemTexts(req port.RoundRequest) []string {
	var out []string
	for _, m := range req.Messages {
		if m.Role == "system" {
			out = append(out, m.Content)
		}
	}
	return out
}

func toolNames(req port.RoundRequest) []string {
	var out []string
	for _, d := range req.Tools {
		out = append(out, d.Function.Name)
	}
	return out
}

var _ = Describe("lazy registry expansion (RUNTIME §11.1, §26.3; CONTRACTS §9.6)", func() {
	const before, after = "sha256:tool-set", "sha256:tool-set-expanded"
	// stated is how the workspace-scope module states a registry hash.
	stated := func(hash string) string { return `"registrySnapshotHash":"` + hash + `"` }

	// lazyRun lists the workspace, which activates lazy_read and
	// lazy_search, then reports; it returns the result, the two model
	// requests and the prompt_snapshot trace payloads.
	lazyRun := func(update string) (run.Result, []port.RoundRequest, []map[string]any) {
		m := newFnModel(roundCalls("workspace_list", "c1"), []port.RoundEvent{started(), doneText("Listed src.")})
		m.caps.SystemPromptUpdate = update
		e := newEnv(m)
		e.exec.activateAfter = []testTool{
			{name: "lazy_read", canonical: "lazy_read", caps: []string{"inspect"}},
			{name: "lazy_search", canonical: "lazy_search", caps: []string{"inspect"}},
		}
		tr := store.NewTrace()
		e.trace = tr
		r := e.start(baseRequest("run-lazy-" + update))
		var snaps []map[string]any
		for _, ev := range tr.Events() {
			if ev.Kind == port.TracePromptSnapshot {
				snaps = append(snaps, decodeJSON(ev.Payload))
			}
		}
		m.mu.Lock()
		defer m.mu.Unlock()
		return r, append([]port.RoundRequest(nil), m.requests...), snaps
	}

	DescribeTable("shows the second request a prompt for the new registry",
		func(update string, leadingStable bool) {
			r, reqs, snaps := lazyRun(update)
			Expect(r.Status).To(Equal(run.StatusCompleted), "%s %s", r.ErrorCode, r.ErrorMessage)
			Expect(reqs).To(HaveLen(2))

			first := systemTexts(reqs[0])
			Expect(first).To(HaveLen(1))
			Expect(first[0]).To(ContainSubstring(stated(before)))
			Expect(first[0]).NotTo(ContainSubstring(stated(after)))
			Expect(toolNames(reqs[0])).NotTo(ContainElement("lazy_read"))

			second := systemTexts(reqs[1])
			Expect(second).NotTo(BeEmpty())
			latest := second[len(second)-1]
			Expect(latest).To(ContainSubstring(stated(after)), "the re-assembled prompt states the new registrySnapshotHash")
			Expect(latest).NotTo(ContainSubstring(stated(before)))
			Expect(toolNames(reqs[1])).To(ContainElements("lazy_read", "lazy_search"))
			if leadingStable {
				Expect(second[0]).To(Equal(first[0]), "in-history keeps the leading system message byte-stable")
				Expect(second).To(HaveLen(2))
			} else {
				Expect(second).To(HaveLen(1), "in-place replaces the system message")
			}

			Expect(snaps).To(HaveLen(2), "prepare and the re-assembly each trace a prompt_snapshot")
			Expect(snaps[0]["registrySnapshotHash"]).To(Equal(before))
			Expect(snaps[1]["registrySnapshotHash"]).To(Equal(after))
			Expect(snaps[1]["promptHash"]).NotTo(Equal(snaps[0]["promptHash"]))
			Expect(snaps[1]["systemPromptHash"]).NotTo(Equal(snaps[0]["systemPromptHash"]))
			Expect(snaps[1]["taskContractHash"]).To(Equal(snaps[0]["taskContractHash"]), "the task contract does not change")
			Expect(snaps[1]["promptVersion"]).To(Equal(snaps[0]["promptVersion"]))
		},
		Entry("in place", "in-place", false),
		Entry("in history", "in-history", true),
	)

	It("does not re-assemble when the registry hash is unchanged", func() {
		m := newFnModel(roundCalls("workspace_list", "c1"), []port.RoundEvent{started(), doneText("Listed src.")})
		e := newEnv(m)
		tr := store.NewTrace()
		e.trace = tr
		r := e.start(baseRequest("run-lazy-none"))
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
		n := 0
		for _, k := range tr.Kinds() {
			if k == port.TracePromptSnapshot {
				n++
			}
		}
		Expect(n).To(Equal(1))
		Expect(systemTexts(m.requests[1])).To(Equal(systemTexts(m.requests[0])))
		Expect(systemTexts(m.requests[1])[0]).To(ContainSubstring(stated(before)))
	})
})
