package clock_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/doubles/clock"
)

var _ = Describe("IDs", func() {
	It("counts per prefix from 1", func() {
		ids := clock.NewIDs("")
		got := []string{ids.NewID("run"), ids.NewID("execution"), ids.NewID("execution"), ids.NewID("run")}
		Expect(got).To(Equal([]string{"run-1", "execution-1", "execution-2", "run-2"}))
		Expect(ids.Issued()).To(Equal(got))
	})

	It("prefixes a namespace", func() {
		ids := clock.NewIDs("fixture")
		Expect(ids.NewID("execution")).To(Equal("fixture-execution-1"))
		Expect(ids.NewID("execution")).To(Equal("fixture-execution-2"))
	})

	It("returns a pinned ID without counting", func() {
		ids := clock.NewIDs("fixture")
		ids.Pin("run", "fixture-write-and-validate-ad9ef01bb5d2")
		Expect(ids.NewID("run")).To(Equal("fixture-write-and-validate-ad9ef01bb5d2"))
		Expect(ids.NewID("run")).To(Equal("fixture-write-and-validate-ad9ef01bb5d2"))
		Expect(ids.NewID("execution")).To(Equal("fixture-execution-1"))
	})

	It("gives two sources the same sequence", func() {
		a, b := clock.NewIDs(""), clock.NewIDs("")
		for _, p := range []string{"run", "execution", "run", "trace"} {
			Expect(a.NewID(p)).To(Equal(b.NewID(p)))
		}
	})
})
