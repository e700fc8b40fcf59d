package effects_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/core/port"
)

var _ = Describe("application helpers", func() {
	It("formats approval records", func() {
		Expect(effects.ApprovalRecord("granted", "run-1:call-1", "run_command", "call-1")).To(Equal("granted:run-1:call-1:run_command:call-1"))
		Expect(effects.ApprovalRecord("denied", "", "run_command", "call-2")).To(Equal("denied:run_command:call-2"))
	})

	It("asks for a workspace fingerprint for writes, validations and diff reviews only", func() {
		Expect(effects.NeedsWorkspaceFingerprint(nil)).To(BeFalse())
		Expect(effects.NeedsWorkspaceFingerprint(&port.Effects{InspectedPaths: []string{"a"}, StateVersion: "v"})).To(BeFalse())
		Expect(effects.NeedsWorkspaceFingerprint(&port.Effects{Writes: []port.Write{{}}})).To(BeTrue())
		Expect(effects.NeedsWorkspaceFingerprint(&port.Effects{Validations: []port.ValidationEntry{{}}})).To(BeTrue())
		Expect(effects.NeedsWorkspaceFingerprint(&port.Effects{DiffReview: &port.DiffReview{}})).To(BeTrue())
		failWith(effects.MissingVerifier(), "Workspace-changing or verification evidence requires a host workspace evidence verifier.")
	})

	It("picks the target state by precedence", func() {
		all := &port.Effects{Writes: []port.Write{{}}, Validations: []port.ValidationEntry{{}}, DiffReview: &port.DiffReview{}, Plan: &port.Plan{}}
		Expect(effects.TargetState(all)).To(Equal("executing"))
		all.Writes = nil
		Expect(effects.TargetState(all)).To(Equal("validating"))
		all.Validations = nil
		Expect(effects.TargetState(all)).To(Equal("reviewing"))
		all.DiffReview = nil
		Expect(effects.TargetState(all)).To(Equal("planning"))
		all.Plan = nil
		Expect(effects.TargetState(all)).To(Equal(""))
		Expect(effects.TargetState(nil)).To(Equal(""))
	})

	DescribeTable("normalizes research URLs as a WHATWG serializer",
		func(in, out string) {
			got, err := effects.NormalizeResearchURL(in)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(out))
		},
		Entry(nil, "https://example.com/a#frag", "https://example.com/a"),
		Entry(nil, "https://Example.COM", "https://example.com/"),
		Entry(nil, "HTTPS://example.com:443/x?q=1#f", "https://example.com/x?q=1"),
		Entry(nil, "http://example.com:80/", "http://example.com/"),
		Entry(nil, "http://example.com:8080/", "http://example.com:8080/"),
		Entry(nil, " https://example.com/ ", "https://example.com/"),
		Entry(nil, "http://[::1]:80/p", "http://[::1]/p"),
	)

	It("refuses an unparsable research URL", func() {
		_, err := effects.NormalizeResearchURL("not a url")
		Expect(err).To(HaveOccurred())
	})
})
