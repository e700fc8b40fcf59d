package run_test

import (
	"fmt"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/doubles/store"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("the trace (RUNTIME §26)", func() {
	It("correlates every event and flushes at the completion boundary", func() {
		tr := store.NewTrace()
		e := scripted(calls(call("workspace_list", "l")), text("Inspected."))
		e.trace = tr
		e.exec.set("workspace_list", func(port.ToolCall) (port.ToolResult, error) {
			r := ok("workspace_list", &port.Effects{InspectedPaths: []string{"src"}})
			r.Summary = "listed with token=abc123secret"
			return r, nil
		})
		r := e.complete(baseRequest("run-trace"))
		events := tr.Events()
		Expect(tr.Kinds()).To(Equal([]string{"state_transition", "prompt_snapshot", "state_transition",
			"context_diagnostic", "token_ledger", "tool_call", "tool_result",
			"context_diagnostic", "token_ledger", "state_transition", "completion_gate"}), "the completed transition is not traced (DECISIONS 23)")
		for i, ev := range events {
			Expect(ev.Sequence).To(BeEquivalentTo(i + 1))
			Expect(ev.EventID).To(Equal(fmt.Sprintf("run-trace:%s:%d", r.ExecutionID, i+1)))
			Expect(ev.RunID).To(Equal("run-trace"))
			Expect(ev.TaskID).To(Equal("task-test"))
		}
		call := decodeJSON(events[5].Payload)
		Expect(call["canonicalName"]).To(Equal("workspace_list"), "the model-facing name (DECISIONS 22)")
		Expect(call["idempotencyKey"]).To(Equal(e.exec.contexts[0].IdempotencyKey))
		res := decodeJSON(events[6].Payload)
		Expect(res["summary"]).To(Equal("listed with token=[REDACTED]"))
		Expect(res["errorCode"]).To(BeNil())
		Expect(tr.FlushCount()).To(Equal(1))
	})

	It("never records raw thinking", func() {
		tr := store.NewTrace()
		m := newFnModel(append([]port.RoundEvent{started(), {Type: port.EventThinking, Delta: "PRIVATE-CHAIN"}}, roundCalls("workspace_list", "l")[1:]...),
			[]port.RoundEvent{started(), doneText("Inspected.")})
		e := newEnv(m)
		e.trace = tr
		e.complete(baseRequest("run-thinking"))
		for _, ev := range tr.Events() {
			Expect(string(ev.Payload)).NotTo(ContainSubstring("PRIVATE-CHAIN"))
		}
		var thinking []string
		for _, msg := range m.requests[1].Messages {
			if msg.Role == "assistant" {
				thinking = append(thinking, msg.Thinking)
			}
		}
		Expect(thinking).To(Equal([]string{"PRIVATE-CHAIN"}), "preserved thinking is for the model only")
	})
})
