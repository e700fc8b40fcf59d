package checkpoint

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Specs that pin single checkpoint rules at the edge of their inputs, each
// one a rule that a one-token change of the implementation would break.
var _ = Describe("checkpoint rules at their edges", func() {
	It("accepts an integer of exactly Number.MAX_SAFE_INTEGER, and refuses the next one", func() {
		Expect(Validate(mutated("executionBudget.persistenceGraceMs", json.Number("9007199254740991")))).To(Equal([]Issue{hashMismatch}))
		Expect(Validate(mutated("executionBudget.persistenceGraceMs", json.Number("9007199254740992")))).To(Equal([]Issue{
			inv("executionBudget.persistenceGraceMs", "persistenceGraceMs must be a positive integer."),
		}))
	})

	It("accepts the earliest and the latest JavaScript date, and nothing beyond them", func() {
		Expect(IsCanonicalTimestamp("-271821-04-20T00:00:00.000Z")).To(BeTrue())
		Expect(IsCanonicalTimestamp("-271821-04-19T23:59:59.999Z")).To(BeFalse())
		Expect(IsCanonicalTimestamp("+275760-09-13T00:00:00.000Z")).To(BeTrue())
		Expect(IsCanonicalTimestamp("+275760-09-13T00:00:00.001Z")).To(BeFalse())
	})

	It("accepts exactly 24 research sources", func() {
		Expect(Validate(mutated("researchSources", researchList(24)))).To(Equal([]Issue{hashMismatch}))
	})
})
