package run_test

import (
	"context"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/run"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// anonymousModel is fnModel whose done events carry no identity.
type anonymousModel struct{ *fnModel }

func (m anonymousModel) StreamRound(ctx context.Context, req port.RoundRequest) ([]port.RoundEvent, error) {
	events, err := m.fnModel.StreamRound(ctx, req)
	for i := range events {
		events[i].Identity = nil
	}
	return events, err
}

func tokens(input int) *port.TokenUsage { return &port.TokenUsage{InputTokens: &input} }

var _ = Describe("model rounds at their edges (RUNTIME §12.1, §12.2)", func() {
	DescribeTable("asks the model to preserve thinking exactly when the capability is supported",
		func(capability string, want bool) {
			m := newFnModel([]port.RoundEvent{started(), doneText("Reported.")})
			m.caps.PreserveThinking = capability
			r := newEnv(m).start(noGateRequest("run-preserve-thinking"))
			Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
			Expect(m.requests).To(HaveLen(1))
			Expect(m.requests[0].PreserveThinking).To(Equal(want))
		},
		Entry("supported", port.CapabilitySupported, true),
		Entry("unsupported", port.CapabilityUnsupported, false),
		Entry("unknown", port.CapabilityUnknown, false),
	)

	It("forwards the done event with the public identity, without the endpoint's credentials (§33.5)", func() {
		m := newFnModel([]port.RoundEvent{started(), doneText("Reported.")})
		m.identity.BaseURL = "https://user:password@model.invalid/v1?api_key=super-secret#fragment"
		m.caps.Identity = m.identity
		e := newEnv(m)
		r := e.start(noGateRequest("run-public-identity"))
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
		var done *port.RoundEvent
		for _, ev := range e.eventsOf(run.EventModel) {
			if ev.Model.Type == port.EventDone {
				done = ev.Model
			}
		}
		Expect(done).NotTo(BeNil())
		Expect(done.Identity).NotTo(BeNil())
		Expect(done.Identity.BaseURL).To(Equal("https://model.invalid/v1"))
		Expect(done.Identity.Model).To(Equal(m.identity.Model))
	})

	It("accepts a done event that carries no identity", func() {
		m := newFnModel([]port.RoundEvent{started(), doneText("Reported without an identity.")})
		e := newEnv(anonymousModel{m})
		r := e.start(noGateRequest("run-no-identity"))
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
		Expect(r.FinalResponse).To(Equal("Reported without an identity."))
		var done *port.RoundEvent
		for _, ev := range e.eventsOf(run.EventModel) {
			if ev.Model.Type == port.EventDone {
				done = ev.Model
			}
		}
		Expect(done).NotTo(BeNil())
		Expect(done.Identity).To(BeNil())
	})

	It("takes the done event's usage over a usage event, and the last usage event when done has none", func() {
		first := []port.RoundEvent{started(), {Type: port.EventUsage, Usage: tokens(111)}, callEvent("workspace_list", "l"),
			{Type: port.EventDone, StopReason: port.StopToolCalls, Usage: tokens(4321)}}
		second := []port.RoundEvent{started(), {Type: port.EventUsage, Usage: tokens(222)}, doneText("Inspected.")}
		e := newEnv(newFnModel(first, second))
		r := e.start(baseRequest("run-done-usage"))
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
		ledger := e.eventsOf(run.EventTokenLedger)
		Expect(ledger).To(HaveLen(2))
		Expect(ledger[0].Ledger.ActualInput).NotTo(BeNil())
		Expect(*ledger[0].Ledger.ActualInput).To(Equal(4321))
		Expect(ledger[1].Ledger.ActualInput).NotTo(BeNil())
		Expect(*ledger[1].Ledger.ActualInput).To(Equal(222))
	})

	It("records no attachment delivery in the checkpoint of a run without attachments", func() {
		e := newEnv(newFnModel(roundCalls("workspace_list", "l"), []port.RoundEvent{started(), doneText("never")}))
		e.onEvent = pauseAfterFirstResult
		r := e.start(baseRequest("run-no-attachments"))
		Expect(r.Status).To(Equal(run.StatusPaused), r.ErrorMessage)
		Expect(r.Checkpoint).NotTo(BeNil())
		Expect(r.Checkpoint.Delivery.AttachmentsDelivered).To(BeFalse())
	})

	It("records the attachments as delivered once a round with them has started", func() {
		m := newFnModel(roundCalls("workspace_list", "l"), []port.RoundEvent{started(), doneText("never")})
		m.caps.Input.Image = port.CapabilitySupported
		e := newEnv(m)
		e.onEvent = pauseAfterFirstResult
		r := e.start(withScreenshot(baseRequest("run-attachments-delivered")))
		Expect(r.Status).To(Equal(run.StatusPaused), r.ErrorMessage)
		Expect(r.Checkpoint).NotTo(BeNil())
		Expect(r.Checkpoint.Delivery.AttachmentsDelivered).To(BeTrue())
	})
})
