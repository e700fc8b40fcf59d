package model_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/doubles/model"
)

var _ = Describe("Controls", func() {
	mustControls := func(cs ...model.Control) *model.Controls {
		c, err := model.NewControls(cs)
		Expect(err).NotTo(HaveOccurred())
		return c
	}

	It("fires on exactly the Nth event of its kind, once", func() {
		c := mustControls(model.Control{Action: "cancel", Event: "tool_start", Occurrence: 3})
		Expect(c.Observe("tool_start")).To(BeEmpty())
		Expect(c.Observe("model")).To(BeEmpty(), "other kinds do not count")
		Expect(c.Observe("state")).To(BeEmpty(), "non-control events are ignored")
		Expect(c.Observe("tool_start")).To(BeEmpty())
		Expect(c.Observe("tool_start")).To(Equal([]model.Firing{
			{Index: 1, Action: "cancel", Event: "tool_start", Occurrence: 3, Reason: "Fixture control 1 canceled the run."},
		}))
		Expect(c.Observe("tool_start")).To(BeEmpty(), "a control fires once")
		Expect(c.Count("tool_start")).To(Equal(4))
		Expect(c.Count("state")).To(Equal(0))
		Expect(c.AllFired()).To(BeTrue())
	})

	It("defaults the occurrence to the first event", func() {
		c := mustControls(model.Control{Action: "pause", Event: "context_pressure"})
		Expect(c.Observe("context_pressure")).To(Equal([]model.Firing{
			{Index: 1, Action: "pause", Event: "context_pressure", Occurrence: 1, Reason: "Fixture control 1 paused the run."},
		}))
	})

	It("fires several controls on one event in declaration order and keeps counting across executions", func() {
		c := mustControls(
			model.Control{Action: "pause", Event: "model", Occurrence: 2},
			model.Control{Action: "cancel", Event: "tool_result", Occurrence: 1},
			model.Control{Action: "cancel", Event: "model", Occurrence: 2},
			model.Control{Action: "pause", Event: "model", Occurrence: 5},
		)
		Expect(c.Observe("model")).To(BeEmpty())
		fired := c.Observe("model")
		Expect(fired).To(HaveLen(2))
		Expect([]int{fired[0].Index, fired[1].Index}).To(Equal([]int{1, 3}))
		Expect(c.FiredCount()).To(Equal(2))
		Expect(c.Unfired()).To(Equal([]int{2, 4}))
		Expect(c.AllFired()).To(BeFalse())

		// A resumed execution feeds the same Controls: counting goes on.
		c.Observe("model")
		c.Observe("model")
		Expect(c.Observe("model")).To(ConsistOf(HaveField("Index", 4)))
		Expect(c.Unfired()).To(Equal([]int{2}))
		Expect(c.Firings()).To(HaveLen(3))
	})

	It("is satisfied when nothing is declared", func() {
		c := mustControls()
		Expect(c.Observe("model")).To(BeEmpty())
		Expect(c.AllFired()).To(BeTrue())
	})

	DescribeTable("rejects malformed controls",
		func(ctl model.Control, msg string) {
			_, err := model.NewControls([]model.Control{{Action: "cancel", Event: "model"}, ctl})
			Expect(err).To(MatchError(ContainSubstring(msg)))
			Expect(err).To(MatchError(ContainSubstring("control 2")))
		},
		Entry("action", model.Control{Action: "stop", Event: "model"}, `action "stop"`),
		Entry("event", model.Control{Action: "pause", Event: "state"}, `event "state"`),
		Entry("occurrence", model.Control{Action: "pause", Event: "model", Occurrence: -1}, "occurrence -1"),
	)
})
