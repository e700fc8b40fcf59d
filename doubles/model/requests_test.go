package model_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/prompt"
	"github.com/galaxy-stack/conform/doubles/model"
)

var _ = Describe("Scripted request records", func() {
	hash := "sha256:" + strings.Repeat("ab", 32)
	other := "sha256:" + strings.Repeat("cd", 32)

	It("summarizes every request: outcome, offered tools, task and delivered checkpoints", func() {
		m := model.NewScripted([]model.Round{model.TextRound("one")})
		stream(m, request("fix the bug", "list_files", "read_file"))
		withCheckpoint := request("resume the task")
		withCheckpoint.Messages = append(withCheckpoint.Messages, port.Message{Role: "user",
			Content: `[CHECKPOINT]` + "\n" + `{"contentHash":"` + hash + `","goal":"fix the bug","x":{"contentHash":"` + hash + `"}}`})
		withCheckpoint.Think = true
		stream(m, withCheckpoint)
		_, _ = m.StreamRound(canceledContext(), request("fix the bug"))

		Expect(m.Records("fix the bug")).To(Equal([]model.RequestRecord{
			{Request: 1, Outcome: "round", Round: 1, Messages: 2, ToolNames: []string{"list_files", "read_file"}, ContainsTask: true, CheckpointHashes: []string{}},
			{Request: 2, Outcome: "exhausted", Messages: 3, ToolNames: []string{}, ToolFree: true, Think: true, ContainsTask: true, CheckpointHashes: []string{hash}},
			{Request: 3, Outcome: "canceled", Messages: 2, ToolNames: []string{}, ToolFree: true, ContainsTask: true, CheckpointHashes: []string{}},
		}))
		Expect(m.Records("something else")[0].ContainsTask).To(BeFalse())
	})

	It("tells the task as the user's request from the task quoted in a checkpoint's data", func() {
		m := model.NewScripted([]model.Round{model.TextRound("one")})
		asTask := request("resume the task")
		asTask.Messages = append(asTask.Messages, port.Message{Role: "user", Content: prompt.UserTaskHeader + "\n" + `{"goal":"say \"hi\" twice"}`})
		quoted := request("resume the task")
		quoted.Messages = append(quoted.Messages, port.Message{Role: "user", Content: `[CHECKPOINT]` + "\n" + `{"goal":"say \"hi\" twice"}`})
		stream(m, asTask)
		stream(m, quoted)
		recs := m.Records(`say "hi" twice`)
		Expect([]bool{recs[0].TaskMessage, recs[1].TaskMessage}).To(Equal([]bool{true, false}))
	})

	It("records each request's attachments as its own copy", func() {
		m := model.NewScripted([]model.Round{model.TextRound("one")})
		shot := port.Attachment{ArtifactID: "artifact-1", ContentSha256: "sha256:1", MimeType: "image/png", Name: "a.png",
			Provenance: port.AttachmentProvenance{Source: "user_upload"}, Retention: "default", Trust: "untrusted_data"}
		req := request("look at the screenshot")
		req.Attachments = []port.Attachment{shot}
		stream(m, req)
		stream(m, request("no attachment"))
		req.Attachments[0].Name = "changed.png"

		reqs := m.Requests()
		Expect(reqs[0].Attachments).To(Equal([]port.Attachment{shot}), "the caller's later change does not reach the record")
		Expect(reqs[1].Attachments).To(BeNil())
		reqs[0].Attachments[0].Name = "mutated.png"
		Expect(m.Requests()[0].Attachments).To(Equal([]port.Attachment{shot}), "Requests returns copies")
	})

	It("audits the model context as the lab does", func() {
		m := model.NewScripted(nil)
		Expect(m.Audit("task", []string{hash})).To(Equal(model.ContextAudit{AllRequestsContainTask: false, ObservedCheckpointHashes: []string{}}),
			"no request means the task was never shown")

		stream(m, request("the task"))
		req := request("the task")
		req.Messages[0].Content += " " + hash
		stream(m, req)
		Expect(m.Audit("the task", []string{other, hash})).To(Equal(model.ContextAudit{AllRequestsContainTask: true, ObservedCheckpointHashes: []string{hash}}))

		stream(m, request("unrelated"))
		Expect(m.Audit("the task", nil).AllRequestsContainTask).To(BeFalse())
	})
})
