package kit

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/jsonrpc"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// An execCall is one tool/execute request the harness sent to a host
// process of the run, with the host's answer as the harness received it.
type execCall struct {
	// Process is the host process the request went to (1 first).
	Process int
	wire.ExecuteParams
	// Result is the envelope the host answered, nil when it answered
	// with an error (Error) or not at all.
	Result *port.ToolResult
	// RawResult is the envelope's JSON text, to check which members it
	// has at all.
	RawResult json.RawMessage
	// Error is the host's JSON-RPC error answer, nil otherwise.
	Error *wire.Error
}

// Executes returns the tool/execute requests of the run in the order the
// harness sent them, each with its answer.
func (o *Outcome) Executes() []execCall {
	GinkgoHelper()
	var calls []execCall
	pending := map[string]int{} // process/id → index in calls
	key := func(process int, id *json.RawMessage) string { return fmt.Sprintf("%d/%s", process, *id) }
	for _, m := range o.Wire {
		var msg jsonrpc.Envelope
		Expect(json.Unmarshal(m.Line, &msg)).To(Succeed(), "%s: the harness recorded a wire message it cannot decode: %s", o.File, m.Line)
		if msg.ID == nil {
			continue
		}
		switch {
		case m.Sent && msg.Method == wire.MethodExecute:
			var p wire.ExecuteParams
			Expect(json.Unmarshal(msg.Params, &p)).To(Succeed(), "%s: tool/execute params: %s", o.File, msg.Params)
			pending[key(m.Process, msg.ID)] = len(calls)
			calls = append(calls, execCall{Process: m.Process, ExecuteParams: p})
		case !m.Sent && msg.Method == "":
			i, ok := pending[key(m.Process, msg.ID)]
			if !ok {
				continue
			}
			delete(pending, key(m.Process, msg.ID))
			if msg.Error != nil {
				calls[i].Error = msg.Error
				continue
			}
			var r port.ToolResult
			if json.Unmarshal(msg.Result, &r) == nil {
				calls[i].Result, calls[i].RawResult = &r, msg.Result
			}
		}
	}
	return calls
}

// ExecutedNames returns the model names of the run's tool/execute
// requests, in order.
func (o *Outcome) ExecutedNames() []string {
	GinkgoHelper()
	var names []string
	for _, c := range o.Executes() {
		names = append(names, c.ModelName)
	}
	return names
}

// Dispatched asserts that the host received exactly the tool/execute
// requests named, in order: a call the core refuses in preflight, or a
// batch stop holds back, must never reach the host.
func (o *Outcome) Dispatched(names ...string) {
	GinkgoHelper()
	got := o.ExecutedNames()
	if names == nil {
		names = []string{}
	}
	if got == nil {
		got = []string{}
	}
	Expect(got).To(Equal(names), "%s: the host received tool/execute for [%s]; only [%s] may reach it", o.File, strings.Join(got, ", "), strings.Join(names, ", "))
}

// Answers returns the results the host answered the harness's requests of
// method with, in order; error answers are left out.
func (o *Outcome) Answers(method string) []json.RawMessage {
	GinkgoHelper()
	asked := map[string]bool{}
	var out []json.RawMessage
	for _, m := range o.Wire {
		var msg jsonrpc.Envelope
		if json.Unmarshal(m.Line, &msg) != nil || msg.ID == nil {
			continue
		}
		k := fmt.Sprintf("%d/%s", m.Process, *msg.ID)
		switch {
		case m.Sent && msg.Method == method:
			asked[k] = true
		case !m.Sent && msg.Method == "" && asked[k]:
			delete(asked, k)
			if msg.Error == nil {
				out = append(out, msg.Result)
			}
		}
	}
	return out
}
