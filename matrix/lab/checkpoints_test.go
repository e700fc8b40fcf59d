package lab_test

import (
	"path/filepath"

	"github.com/galaxy-stack/conform/matrix/lab"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// storedOf returns the reasons and content hashes of rep's decoded
// checkpoints, and those of its checkpoint audits.
func storedOf(rep *lab.Report) (decoded, audited []string) {
	for _, cp := range rep.Checkpoints {
		decoded = append(decoded, string(cp.Reason)+" "+cp.ContentHash)
	}
	for _, a := range rep.CheckpointAudits {
		audited = append(audited, a.Reason+" "+a.ContentHash)
	}
	return decoded, audited
}

var _ = Describe("the report's persisted checkpoints (Report.Checkpoints)", func() {
	fx := func() string { return filepath.Join(seedDir, "scenarios/token-exhaustion-resume.json") }

	It("holds every checkpoint the host's store kept, decoded, in save order", func() {
		rep := runFast(hostArgv("reference"), loadOne(fx()))
		Expect(rep.Passed).To(BeTrue(), "%v", failuresOf(rep))
		decoded, audited := storedOf(rep)
		Expect(decoded).To(HaveLen(2))
		Expect(decoded).To(Equal(audited))
		Expect(rep.Checkpoints[1].Goal).To(Equal(loadOne(fx()).Task))
	})

	It("holds the checkpoints of conform's memory store when the host offers none", func() {
		rep := runFast(storelessArgv(), loadOne(fx()))
		decoded, audited := storedOf(rep)
		Expect(decoded).To(HaveLen(2))
		Expect(decoded).To(Equal(audited))
	})
})
