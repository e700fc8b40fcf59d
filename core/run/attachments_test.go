package run_test

import (
	"context"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/prompt"
	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/doubles/model"
	"github.com/galaxy-stack/conform/doubles/store"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// visionModel is the scripted double with verified image input.
type visionModel struct{ *model.Scripted }

func (m visionModel) Capabilities(ctx context.Context) (port.ModelCapabilities, error) {
	caps, err := m.Scripted.Capabilities(ctx)
	caps.Input.Image = port.CapabilitySupported
	return caps, err
}

func withScreenshot(req run.Request) run.Request {
	req.Attachments = []prompt.Attachment{{ArtifactID: "artifact-screen", ContentSha256: "sha256:screen", MimeType: "image/png",
		Name: "screen.png", Provenance: prompt.Provenance{Source: "user_upload"}, Retention: "default", Trust: "untrusted_data"}}
	return req
}

var screenshot = port.Attachment{ArtifactID: "artifact-screen", ContentSha256: "sha256:screen", MimeType: "image/png",
	Name: "screen.png", Provenance: port.AttachmentProvenance{Source: "user_upload"}, Retention: "default", Trust: "untrusted_data"}

var _ = Describe("attachments resent on every round (RUNTIME §11 step 8, CONTRACTS §13.2)", func() {
	It("sends the request's attachments with every request, the one after a provider_overflow compaction included", func() {
		m := model.NewScripted([]model.Round{calls(argCall("workspace_list", "l", map[string]any{})), text("Inspected the screenshot.")},
			counts(90000, 500, 500))
		e := newEnv(visionModel{m})
		e.store, e.verifier = store.NewRunStore(), newVerifier()
		r := e.start(withScreenshot(baseRequest("run-attachments")))
		Expect(r.Status).To(Equal(run.StatusCompleted), r.ErrorMessage)
		Expect(e.store.(*store.RunStore).CheckpointReasons()).To(Equal([]string{"provider_overflow"}))
		Expect(m.Requests()).To(HaveLen(2))
		for i, req := range m.Requests() {
			Expect(req.Attachments).To(Equal([]port.Attachment{screenshot}), "request %d", i+1)
		}
	})

	It("resends them on a retried round", func() {
		m := newFnModel(
			[]port.RoundEvent{started(), providerError("RATE_LIMITED", "slow down", true, "")},
			[]port.RoundEvent{started(), doneText("Inspected the screenshot.")},
		)
		m.caps.Input.Image = port.CapabilitySupported
		e := newEnv(m)
		req := withScreenshot(withRetries(baseRequest("run-attachments-retry"), 1))
		req.Completion = &prompt.Completion{RequireInspection: new(bool), RequireValidation: new(bool)}
		e.start(req)
		Expect(m.requests).To(HaveLen(2))
		for i, req := range m.requests {
			Expect(req.Attachments).To(Equal([]port.Attachment{screenshot}), "request %d", i+1)
		}
	})

	It("sends none for a request without attachments", func() {
		m := model.NewScripted([]model.Round{text("Inspected.")})
		newEnv(m).start(baseRequest("run-no-attachments"))
		Expect(m.Requests()).NotTo(BeEmpty())
		Expect(m.Requests()[0].Attachments).To(BeNil())
	})
})
