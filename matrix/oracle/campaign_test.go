package oracle_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/galaxy-stack/conform/matrix/oracle"
)

var _ = Describe("campaign stages", func() {
	var r *run
	var c *fixture.Campaign
	BeforeEach(func() {
		r = baseRun()
		r.fx.Name = "negative"
		r.fx.Expected.Status = fixture.StatusFailed
		r.fx.Expected.ErrorCode = fixture.Str("TOOL_EXECUTION")
		r.obs.Status = fixture.StatusFailed
		r.obs.ErrorCode = ptr("TOOL_EXECUTION")
		first := &fixture.Fixture{Name: "first"}
		c = &fixture.Campaign{Stages: []*fixture.Fixture{first, r.fx}}
	})

	It("passes a stage that expects a negative outcome and gets it", func() {
		res := oracle.CheckStage(c, 1, r.obs)
		Expect(res.Passed).To(BeTrue())
		Expect(res.Negative).To(BeTrue())
		Expect(res.Stage).To(Equal("stage 2 (negative)"))
		Expect(res.Messages()).To(BeEmpty())
	})

	It("fails a stage that expects a negative outcome and completes", func() {
		r.obs.Status = fixture.StatusCompleted
		r.obs.ErrorCode = nil
		res := oracle.CheckStage(c, 1, r.obs)
		Expect(res.Passed).To(BeFalse())
		Expect(res.Messages()).To(Equal([]string{
			"stage 2 (negative): Expected status failed, received completed.",
			"stage 2 (negative): Expected error TOOL_EXECUTION, received null.",
		}))
	})

	It("tells negative expectations from positive ones", func() {
		Expect(oracle.ExpectsNegative(c.Stages[0])).To(BeFalse())
		for _, s := range []string{fixture.StatusFailed, fixture.StatusCanceled, fixture.StatusPaused} {
			Expect(oracle.ExpectsNegative(&fixture.Fixture{Expected: &fixture.Expected{Status: s}})).To(BeTrue(), s)
		}
		Expect(oracle.ExpectsNegative(&fixture.Fixture{Expected: &fixture.Expected{Status: fixture.StatusCompleted}})).To(BeFalse())
	})
})
