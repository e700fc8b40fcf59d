package kit

import (
	"encoding/json"
	"fmt"

	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/jsonrpc"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// An ApprovalAsk is one approval/request a host process of the run sent
// the harness, with what became of it on the wire.
type ApprovalAsk struct {
	Process int
	wire.ApprovalParams
	// Answer is the harness's result, nil when it answered with an error
	// (Error) or not at all.
	Answer *wire.ApprovalDecision
	// Error is the harness's error answer, nil otherwise.
	Error *wire.Error
	// Canceled is true when the host sent $/cancelRequest for it: the
	// host gave up waiting.
	Canceled bool
}

// approvalAsks returns the approval/request messages of the run in the
// order the hosts sent them.
func (o *Outcome) approvalAsks() []ApprovalAsk {
	GinkgoHelper()
	var asks []ApprovalAsk
	byID := map[string]int{}
	key := func(process int, id json.RawMessage) string { return fmt.Sprintf("%d/%s", process, id) }
	for _, m := range o.Wire {
		var msg jsonrpc.Envelope
		Expect(json.Unmarshal(m.Line, &msg)).To(Succeed(), "%s: the harness recorded a wire message it cannot decode: %s", o.File, m.Line)
		switch {
		case !m.Sent && msg.Method == wire.MethodApproval && msg.ID != nil:
			var p wire.ApprovalParams
			Expect(json.Unmarshal(msg.Params, &p)).To(Succeed(), "%s: approval/request params: %s", o.File, msg.Params)
			byID[key(m.Process, *msg.ID)] = len(asks)
			asks = append(asks, ApprovalAsk{Process: m.Process, ApprovalParams: p})
		case !m.Sent && msg.Method == wire.MethodCancel:
			var p struct {
				ID json.RawMessage `json:"id"`
			}
			if json.Unmarshal(msg.Params, &p) == nil {
				if i, ok := byID[key(m.Process, p.ID)]; ok {
					asks[i].Canceled = true
				}
			}
		case m.Sent && msg.Method == "" && msg.ID != nil:
			i, ok := byID[key(m.Process, *msg.ID)]
			if !ok {
				continue
			}
			if msg.Error != nil {
				asks[i].Error = msg.Error
				continue
			}
			var d wire.ApprovalDecision
			if json.Unmarshal(msg.Result, &d) == nil {
				asks[i].Answer = &d
			}
		}
	}
	return asks
}

// AskedFor asserts that the host asked the harness for approval of each
// Call in callIDs, in that order and of no other call, each request
// correlated as `<runId>:<callId>`, and returns the requests.
func (o *Outcome) AskedFor(callIDs ...string) []ApprovalAsk {
	GinkgoHelper()
	asks := o.approvalAsks()
	var got []string
	for _, a := range asks {
		got = append(got, a.Context.ToolCallID)
	}
	if callIDs == nil {
		callIDs = []string{}
	}
	if got == nil {
		got = []string{}
	}
	Expect(got).To(Equal(callIDs), "%s: the host sent approval/request for calls %v; a host must ask, before any side effect, for exactly the calls its policy requires approval for (%v)", o.File, got, callIDs)
	for _, a := range asks {
		Expect(a.RequestID).To(Equal(o.RunID+":"+a.Context.ToolCallID), "%s: approval/request for %s has requestId %q; it must be <runId>:<callId>", o.File, a.Context.ToolCallID, a.RequestID)
	}
	return asks
}

// DeniedWith asserts that the host answered callID with an ok=false result
// of code whose only effect is the host-attested denial correlated with
// the approval request.
func (o *Outcome) DeniedWith(callID, code string) {
	GinkgoHelper()
	r := o.Answer(callID)
	Expect(r.OK).To(BeFalse(), "%s: %s must not succeed without approval", o.File, callID)
	Expect(r.Error).NotTo(BeNil(), "%s: the failed result of %s carries no error", o.File, callID)
	Expect(r.Error.Code).To(Equal(code), "%s: %s failed with %s; a conformant host answers %s", o.File, callID, r.Error.Code, code)
	Expect(r.Effects).NotTo(BeNil(), "%s: the denial of %s attests no approval effect", o.File, callID)
	Expect(r.Effects.Approval).To(Equal("denied"), "%s: the denial of %s must attest approval=denied", o.File, callID)
	Expect(r.Effects.ApprovalRequestID).To(Equal(o.RunID+":"+callID), "%s: the denial of %s must carry its approval request id", o.File, callID)
	Expect(r.Effects.Writes).To(BeEmpty(), "%s: a denied %s attests writes", o.File, callID)
	Expect(r.Effects.StateVersion).To(BeEmpty(), "%s: a denied %s attests a state change", o.File, callID)
}
