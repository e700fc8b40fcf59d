package clock_test

import (
	"context"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/doubles/clock"
)

var _ = Describe("Fake", func() {
	var c *clock.Fake

	BeforeEach(func() { c = clock.NewFake(1_000) })

	It("reads the time it was given and moves only when told", func() {
		Expect(c.Now()).To(Equal(int64(1_000)))
		Expect(c.Now()).To(Equal(int64(1_000)))
		c.Advance(1500 * time.Millisecond)
		Expect(c.Now()).To(Equal(int64(2_500)))
		c.Set(10)
		Expect(c.Now()).To(Equal(int64(10)))
	})

	It("refuses to advance backwards", func() {
		Expect(func() { c.Advance(-time.Millisecond) }).To(PanicWith(ContainSubstring("negative Advance")))
		Expect(func() { c.SetStep(-time.Millisecond) }).To(PanicWith(ContainSubstring("negative step")))
		Expect(c.Now()).To(Equal(int64(1_000)))
	})

	It("steps after every read when a step is set", func() {
		c.SetStep(5 * time.Millisecond)
		Expect([]int64{c.Now(), c.Now(), c.Now()}).To(Equal([]int64{1_000, 1_005, 1_010}))
		c.SetStep(0)
		Expect([]int64{c.Now(), c.Now()}).To(Equal([]int64{1_015, 1_015}))
	})

	It("formats timestamps in the canonical ISO form", func() {
		Expect(clock.NewFake(0).Timestamp()).To(Equal("1970-01-01T00:00:00.000Z"))
		Expect(clock.FormatTimestamp(1_704_164_645_678)).To(Equal("2024-01-02T03:04:05.678Z"))
	})

	Describe("Sleep", func() {
		It("records each delay and advances virtual time without waiting", func() {
			start := time.Now()
			Expect(c.Sleep(context.Background(), time.Hour)).To(Succeed())
			Expect(c.Sleep(context.Background(), 5*time.Millisecond)).To(Succeed())
			Expect(time.Since(start)).To(BeNumerically("<", time.Second))
			Expect(c.Now()).To(Equal(int64(1_000 + 3_600_000 + 5)))
			Expect(c.Sleeps()).To(Equal([]time.Duration{time.Hour, 5 * time.Millisecond}))
			Expect(c.SleepsMs()).To(Equal([]int64{3_600_000, 5}))
		})

		It("records the delay but fails without advancing when the context is done", func() {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			Expect(c.Sleep(ctx, time.Second)).To(MatchError(context.Canceled))
			Expect(c.Now()).To(Equal(int64(1_000)))
			Expect(c.SleepsMs()).To(Equal([]int64{1_000}))
		})

		It("reports an empty, non-nil list before any sleep", func() {
			Expect(c.SleepsMs()).NotTo(BeNil())
			Expect(c.SleepsMs()).To(BeEmpty())
		})

		It("gives out copies of its record", func() {
			Expect(c.Sleep(context.Background(), time.Second)).To(Succeed())
			got := c.SleepsMs()
			got[0] = 7
			Expect(c.SleepsMs()).To(Equal([]int64{1_000}))
		})
	})
})
