package kit

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/jsonrpc"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// CallsCorrelated asserts, from the run's wire log, that every message the
// host sent about a call names that call (S000 M3, correlation IDs; the
// host's side of them is the call ID it echoes):
//
//   - each approval/request names, in context.toolCallId, a tool/execute
//     in flight on its host process when it was sent, and its requestId is
//     `<runId>:<callId>` of that call, its context the call's run and task
//     (hosts/wire/PROTOCOL.md, approval/request) — catches approval-first-context (a context built
//     once and reused) and approval-key-as-request-id (the idempotency key
//     where the call ID belongs);
//   - each $/cancelRequest the host sends names, by its JSON-RPC id, an
//     approval/request the host sent (hosts/wire/PROTOCOL.md, timeouts
//     and cancellation) — catches cancel-names-call (the call ID where
//     the request's id belongs, so the request stays open);
//   - the content of each failed result names its own call as toolCallId
//     (hosts/wire/CONTRACTS.md, result envelope) — catches
//     failure-names-previous-call (a "current call" kept across calls).
func (o *Outcome) CallsCorrelated() {
	GinkgoHelper()
	type call struct{ id, run, task string }
	inflight := map[int][]call{} // process → tool/execute requests not yet answered
	pending := map[string]call{} // process/request id → the call
	asked := map[string]bool{}   // process/id of each approval/request the host sent
	key := func(process int, id *json.RawMessage) string { return fmt.Sprintf("%d/%s", process, *id) }
	for _, m := range o.Wire {
		var msg jsonrpc.Envelope
		Expect(json.Unmarshal(m.Line, &msg)).To(Succeed(), "%s: the harness recorded a wire message it cannot decode: %s", o.File, m.Line)
		switch {
		case m.Sent && msg.Method == wire.MethodExecute && msg.ID != nil:
			var p wire.ExecuteParams
			Expect(json.Unmarshal(msg.Params, &p)).To(Succeed(), "%s: tool/execute params: %s", o.File, msg.Params)
			c := call{p.CallID, p.Context.RunID, p.Context.TaskID}
			pending[key(m.Process, msg.ID)] = c
			inflight[m.Process] = append(inflight[m.Process], c)
		case !m.Sent && msg.Method == "" && msg.ID != nil:
			c, ok := pending[key(m.Process, msg.ID)]
			if !ok {
				continue
			}
			delete(pending, key(m.Process, msg.ID))
			inflight[m.Process] = slices.DeleteFunc(inflight[m.Process], func(x call) bool { return x == c })
		case !m.Sent && msg.Method == wire.MethodCancel:
			var p struct {
				ID json.RawMessage `json:"id"`
			}
			Expect(json.Unmarshal(msg.Params, &p)).To(Succeed(), "%s: $/cancelRequest params: %s", o.File, msg.Params)
			Expect(asked).To(HaveKey(key(m.Process, &p.ID)), "%s: the host sent $/cancelRequest for id %s, which names none of the approval requests it sent: a host that gives up on an approval request must cancel that request, by its own JSON-RPC id", o.File, p.ID)
		case !m.Sent && msg.Method == wire.MethodApproval:
			if msg.ID != nil {
				asked[key(m.Process, msg.ID)] = true
			}
			var p wire.ApprovalParams
			Expect(json.Unmarshal(msg.Params, &p)).To(Succeed(), "%s: approval/request params: %s", o.File, msg.Params)
			var ids []string
			for _, c := range inflight[m.Process] {
				ids = append(ids, c.id)
			}
			i := slices.IndexFunc(inflight[m.Process], func(c call) bool { return c.id == p.Context.ToolCallID })
			Expect(i >= 0).To(BeTrue(), "%s: the host sent approval/request naming call %q (requestId %q) while the harness awaited its answer to %v: an approval request must name the call it is about", o.File, p.Context.ToolCallID, p.RequestID, ids)
			c := inflight[m.Process][i]
			Expect(p.RequestID).To(Equal(c.run+":"+c.id), "%s: the approval/request of call %s has requestId %q; it must be <runId>:<callId>, %q", o.File, c.id, p.RequestID, c.run+":"+c.id)
			Expect([]string{p.Context.RunID, p.Context.TaskID}).To(Equal([]string{c.run, c.task}), "%s: the approval/request of call %s names run %q and task %q in its context; the call came with run %q and task %q", o.File, c.id, p.Context.RunID, p.Context.TaskID, c.run, c.task)
		}
	}
	for _, c := range o.Executes() {
		if c.Result == nil || c.Result.OK {
			continue
		}
		var content map[string]any
		Expect(json.Unmarshal([]byte(c.Result.Content), &content)).To(Succeed(), "%s: the content of %s's failure is not a JSON object: %.200q", o.File, c.CallID, c.Result.Content)
		Expect(content).To(HaveKeyWithValue("toolCallId", c.CallID), "%s: the content of %s's failure names call %v; a failed result must name its own call: %.200q", o.File, c.CallID, content["toolCallId"], c.Result.Content)
	}
}
