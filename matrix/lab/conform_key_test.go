package lab_test

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/galaxy-stack/conform/matrix/lab"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("the conform key", func() {
	It("injects the declared faults, records them, and without them the fixture's expectation does not hold", func() {
		with := runFast(hostArgv("reference"), loadOne(filepath.Join(featureDir, "fault-forged-effects.json")))
		Expect(with.Passed).To(BeTrue(), "failures:\n%s", strings.Join(failuresOf(with), "\n"))
		Expect(with.Faults).To(HaveLen(1))
		Expect(with.Faults[0].Action).To(Equal("forge_effects"))
		Expect(with.Faults[0].ModelName).To(Equal("read_file"))

		dir := GinkgoT().TempDir()
		p := copyFixture(filepath.Join(featureDir, "fault-forged-effects.json"), dir, "no-faults.json", func(d map[string]any) {
			delete(d, "conform")
		})
		without := runFast(hostArgv("reference"), loadOne(p))
		Expect(without.Faults).To(BeEmpty())
		Expect(without.Passed).To(BeFalse(), "without the fault the run completes, so the expected failure must not hold")
		Expect(without.Status).To(Equal("completed"))
	})

	It("forbids containment backends for the session when asked, without any caller option", func() {
		dir := GinkgoT().TempDir()
		p := copyFixture(filepath.Join(seedDir, "scenarios/required-containment.json"), dir, "required.json", func(d map[string]any) {
			d["conform"] = map[string]any{"forbidContainmentBackends": true}
		})
		rep, err := lab.Run(context.Background(), loadOne(p), lab.Options{Argv: hostArgv("reference")}, false)
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Passed).To(BeTrue(), "failures:\n%s", strings.Join(failuresOf(rep), "\n"))
	})
})
