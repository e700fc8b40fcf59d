package window_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/window"
)

var _ = Describe("Profiles (CONTRACTS §12.4)", func() {
	DescribeTable("fixed configuration",
		func(p window.Profile, tighten, evict, compact, soft, reserve, rounds, defs int) {
			cfg, ok := p.Config()
			Expect(ok).To(BeTrue())
			Expect([]int{cfg.TightenThreshold, cfg.EvictionThreshold, cfg.CompactionThreshold, cfg.SoftInputTokens,
				cfg.OutputReserveTokens, cfg.MaxToolRoundsBeforeCheckpoint, cfg.ToolDefinitionBudget}).
				To(Equal([]int{tighten, evict, compact, soft, reserve, rounds, defs}))
			Expect(cfg.ConfigVersion).To(Equal("1.1.0"))
			Expect(cfg.SchemaVersion).To(Equal(1))
		},
		Entry("conservative", window.Conservative, 90000, 120000, 150000, 120000, 32768, 16, 8000),
		Entry("balanced", window.Balanced, 120000, 160000, 190000, 160000, 32768, 24, 10000),
		Entry("extended", window.Extended, 160000, 190000, 210000, 190000, 32768, 32, 16000),
	)

	It("rejects an unknown profile", func() {
		_, err := window.NewBudget("huge", 65536, false)
		Expect(err).To(MatchError(`window: unknown context profile "huge"`))
		_, err = window.New(window.Config{Profile: "huge"})
		Expect(err).To(HaveOccurred())
	})
})

var _ = Describe("NewBudget (CONTRACTS §12.4 with the long-context audit correction)", func() {
	// Columns: safety reserve, output reserve, hard, soft, compaction,
	// tighten, eviction. The numbers were computed independently from the
	// formulas of CONTRACTS §12.4 (audit-corrected steps 5–6).
	DescribeTable("derived thresholds",
		func(p window.Profile, w int, calibrated bool, want []int) {
			b, err := window.NewBudget(p, w, calibrated)
			Expect(err).NotTo(HaveOccurred())
			Expect([]int{b.SafetyReserveTokens, b.OutputReserveTokens, b.HardInputTokens, b.SoftInputTokens,
				b.CompactionThreshold, b.TightenThreshold, b.EvictionThreshold}).To(Equal(want))
		},
		Entry("balanced 32768", window.Balanced, 32768, false, []int{8192, 16384, 8192, 6144, 7373, 4656, 6208}),
		Entry("balanced 65536", window.Balanced, 65536, false, []int{8192, 32768, 24576, 18432, 22119, 13969, 18626}),
		Entry("balanced 128000", window.Balanced, 128000, false, []int{12800, 32768, 82432, 61824, 78336, 49475, 65967}),
		Entry("balanced 128000 calibrated", window.Balanced, 128000, true, []int{8192, 32768, 87040, 65280, 82944, 52385, 69847}),
		Entry("balanced 200000", window.Balanced, 200000, false, []int{20000, 32768, 147232, 110424, 143136, 90401, 120535}),
		Entry("balanced 200000 calibrated", window.Balanced, 200000, true, []int{10000, 32768, 157232, 117924, 153136, 96717, 128956}),
		Entry("balanced 262144", window.Balanced, 262144, false, []int{26215, 32768, 203161, 152370, 190000, 120000, 160000}),
		Entry("balanced 262144 calibrated", window.Balanced, 262144, true, []int{13108, 32768, 216268, 160000, 190000, 120000, 160000}),
		Entry("balanced 1M scales soft and compaction with the window", window.Balanced, 1_000_000, false, []int{100000, 32768, 867232, 433616, 607062, 120000, 160000}),
		Entry("conservative 128000", window.Conservative, 128000, false, []int{12800, 32768, 82432, 61824, 78336, 47001, 62668}),
		Entry("conservative 200000 calibrated", window.Conservative, 200000, true, []int{10000, 32768, 157232, 117924, 150000, 90000, 120000}),
		Entry("conservative 262144", window.Conservative, 262144, false, []int{26215, 32768, 203161, 120000, 150000, 90000, 120000}),
		Entry("conservative 1M calibrated", window.Conservative, 1_000_000, true, []int{50000, 32768, 917232, 458616, 642062, 90000, 120000}),
		Entry("extended 65536", window.Extended, 65536, false, []int{8192, 32768, 24576, 18432, 22119, 16852, 20012}),
		Entry("extended 262144", window.Extended, 262144, false, []int{26215, 32768, 203161, 152370, 199065, 151668, 180106}),
		Entry("extended 262144 calibrated", window.Extended, 262144, true, []int{13108, 32768, 216268, 162201, 210000, 160000, 190000}),
		Entry("tiny window clamps everything to 1", window.Balanced, 16384, false, []int{8192, 8192, 1, 1, 1, 1, 1}),
	)

	It("falls back to a 65536 window when the model reports none", func() {
		b, err := window.NewBudget(window.Balanced, 0, false)
		Expect(err).NotTo(HaveOccurred())
		Expect(b.ContextWindow).To(Equal(65536))
		Expect(b.FallbackContextWindow).To(BeTrue())
		Expect(b.SafetyRate).To(Equal(0.10))
		c, _ := window.NewBudget(window.Balanced, 65536, true)
		Expect(c.FallbackContextWindow).To(BeFalse())
		Expect(c.SafetyRate).To(Equal(0.05))
	})

	It("keeps tighten < evict < compact < hard and reaches every level on the tested windows (original test)", func() {
		for _, w := range []int{32768, 65536, 128000, 200000, 262144} {
			b, err := window.NewBudget(window.Balanced, w, false)
			Expect(err).NotTo(HaveOccurred())
			Expect(b.TightenThreshold).To(BeNumerically("<", b.EvictionThreshold), "window %d", w)
			Expect(b.EvictionThreshold).To(BeNumerically("<", b.CompactionThreshold), "window %d", w)
			Expect(b.CompactionThreshold).To(BeNumerically("<", b.HardInputTokens), "window %d", w)
			Expect(b.Classify(0, b.TightenThreshold)).To(Equal(window.Tighten))
			Expect(b.Classify(0, b.EvictionThreshold)).To(Equal(window.Evict))
			Expect(b.Classify(0, b.CompactionThreshold)).To(Equal(window.Compact))
			Expect(b.Classify(0, b.HardInputTokens)).To(Equal(window.Blocked))
		}
	})

	It("computes the round's maxOutputTokens as max(1, min(reserve, model max))", func() {
		b, _ := window.NewBudget(window.Balanced, 65536, false)
		Expect(b.RoundMaxOutput(4096)).To(Equal(4096))
		Expect(b.RoundMaxOutput(100000)).To(Equal(32768))
		Expect(b.RoundMaxOutput(0)).To(Equal(32768))
		small, _ := window.NewBudget(window.Balanced, 1000, false)
		Expect(small.RoundMaxOutput(0)).To(Equal(500))
	})
})

var _ = Describe("Pressure (CONTRACTS §12.4)", func() {
	b, _ := window.NewBudget(window.Balanced, 65536, false) // tighten 13969, evict 18626, compact 22119, hard 24576
	DescribeTable("levels on max(current, projected) at every boundary",
		func(current, projected int, want window.Pressure) {
			Expect(b.Classify(current, projected)).To(Equal(want))
		},
		Entry("0", 0, 0, window.Normal),
		Entry("tighten − 1", 13968, 0, window.Normal),
		Entry("tighten", 13969, 0, window.Tighten),
		Entry("evict − 1", 0, 18625, window.Tighten),
		Entry("evict", 0, 18626, window.Evict),
		Entry("compact − 1", 22118, 22118, window.Evict),
		Entry("compact", 22119, 10, window.Compact),
		Entry("hard − 1", 24575, 0, window.Compact),
		Entry("hard", 0, 24576, window.Blocked),
		Entry("above hard", 1_000_000, 0, window.Blocked),
	)

	DescribeTable("tool-output scale",
		func(p window.Pressure, want float64) { Expect(p.OutputScale()).To(Equal(want)) },
		Entry("normal", window.Normal, 1.0),
		Entry("tighten", window.Tighten, 0.75),
		Entry("evict", window.Evict, 0.5),
		Entry("compact", window.Compact, 0.5),
		Entry("blocked", window.Blocked, 0.5),
	)
})
