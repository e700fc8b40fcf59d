package checkpoint

import (
	"encoding/json"
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Specs that pin single checkpoint rules at the edge of their inputs, each
// one a rule that a one-token change of the implementation would break.
var _ = Describe("checkpoint rules at their edges", func() {
	It("accepts an integer of exactly Number.MAX_SAFE_INTEGER, and refuses the next one", func() {
		Expect(validateBoth(mutated("executionBudget.persistenceGraceMs", json.Number("9007199254740991")))).To(Equal([]Issue{hashMismatch}))
		Expect(validateBoth(mutated("executionBudget.persistenceGraceMs", json.Number("9007199254740992")))).To(Equal([]Issue{
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
		Expect(validateBoth(mutated("researchSources", researchList(24)))).To(Equal([]Issue{hashMismatch}))
	})

	It("accepts a research source at its title, summary and URL bounds", func() {
		url := "https://example.com/docs"
		url += strings.Repeat("x", 4096-len(url))
		data := mutated("researchSources[0].title", strings.Repeat("t", 512))
		data = mutatedFrom(data, "researchSources[0].summary", strings.Repeat("s", 1200))
		data = mutatedFrom(data, "researchSources[0].url", url)
		Expect(validateBoth(data)).To(Equal([]Issue{hashMismatch}))
		Expect(validateBoth(mutated("researchSources[0].title", strings.Repeat("t", 513)))).To(Equal([]Issue{
			inv("researchSources[0].title", "Research source title must contain at most 512 characters."),
		}))
	})

	It("accepts the no-progress lists at their bounds", func() {
		versions, families := make([]any, 128), make([]any, 128)
		for i := range 128 {
			versions[i] = map[string]any{"key": fmt.Sprintf("k%d", i), "value": "v"}
			families[i] = map[string]any{"key": fmt.Sprintf("read:f%d", i), "count": 1}
		}
		data := mutated("noProgress.hostStateVersions", versions)
		data = mutatedFrom(data, "noProgress.observationFamilies", families)
		data = mutatedFrom(data, "noProgress.observationNudgeThresholds", []any{2, 3, 4, 5, 6, 7, 8, 9})
		data = mutatedFrom(data, "noProgress.toolCycleSuffix", list(12, map[string]any{"argumentsHash": "a", "name": "n"}))
		Expect(validateBoth(data)).To(Equal([]Issue{hashMismatch}))
	})
})
