package items

import (
	"github.com/galaxy-stack/conform/matrix/kit"
	. "github.com/onsi/gomega"
)

// probeTimestampResume is item 18 (prompt.go): the model double's
// capability probe answers again before a fresh-host resume
// (conform.reprobeBeforeResume), once with the same result observed later,
// once with a changed result.
func probeTimestampResume(c *kit.TestContext) {
	c.Scenarios(map[string]kit.Case{
		// The same capabilities observed later: the resume is compatible,
		// and the read the model asks for reaches the fresh host (catches
		// probe-timestamp-in-resume-compat).
		"fresh-probe-time.json": kit.On("L18", func(o *kit.Outcome) {
			Expect(o.ErrorMessage).To(BeEmpty(), "%s: the resume after a later probe with the same result failed; observation time must not count", o.File)
			Expect(o.ExecutesIn(2)).To(Equal([]string{"18-fresh-read"}), "%s: the resumed host process must receive the read the model asks for after the resume", o.File)
		}),
		// The probe now reports a prompt cache: only the capabilities hash
		// differs, and the resume is refused before any call (catches
		// resume-ignores-capabilities-hash).
		"changed-probe-result.json": kit.On("L18", func(o *kit.Outcome) {
			Expect(o.ErrorCode).NotTo(BeNil(), "%s: the resume against a changed capability probe completed; it must be refused CHECKPOINT_INCOMPATIBLE", o.File)
			Expect(*o.ErrorCode).To(Equal("CHECKPOINT_INCOMPATIBLE"), "%s: the resume against a changed capability probe must be refused CHECKPOINT_INCOMPATIBLE", o.File)
			Expect(o.ErrorMessage).To(ContainSubstring("capabilitiesHash"), "%s: the refusal must name the capabilities hash, the one value the changed probe moves", o.File)
			Expect(o.ErrorMessage).NotTo(ContainSubstring("promptHash"), "%s: the changed probe result must move only the capabilities hash, not the prompt", o.File)
			o.NoExecuteIn(2)
		}),
	})
}
