package run_test

import (
	"github.com/galaxy-stack/conform/core/prompt"
	"github.com/galaxy-stack/conform/doubles/model"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("the model request at its edges (RUNTIME §11 steps 5–8, §28)", func() {
	It("lists the request's acceptance criteria in the mandatory state, not an empty list", func() {
		m := model.NewScripted([]model.Round{text("Reported.")})
		e := newEnv(m)
		req := baseRequest("run-mandatory-criteria")
		req.AcceptanceCriteria = []prompt.Criterion{{ID: "c1", Text: "the report names the inspected file"}}
		e.start(req)
		Expect(m.Requests()).NotTo(BeEmpty())
		doc := mandatoryDoc(m.Requests()[0])
		Expect(doc).NotTo(BeNil())
		Expect(doc["acceptanceCriteria"]).To(HaveLen(1))
		Expect(doc["acceptanceCriteria"].([]any)[0]).To(HaveKeyWithValue("text", "the report names the inspected file"))
	})

	It("caps a round's output at the model's own output limit when it is below the reserve", func() {
		m := model.NewScripted([]model.Round{text("Reported.")}, model.WithMaxOutputTokens(100))
		newEnv(m).start(baseRequest("run-model-output-limit"))
		Expect(m.Requests()).NotTo(BeEmpty())
		Expect(m.Requests()[0].MaxOutputTokens).To(Equal(100))
	})
})
