package window_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/window"
)

var _ = Describe("Ledger (CONTRACTS §12.3)", func() {
	It("estimates output without a provider count and records no rates", func() {
		var e window.Estimator
		l := window.NewLedger("run-1")
		entry := l.Record(window.LedgerRecord{EstimatedInput: 100, Turn: 1, Thinking: "hello world", VisibleOutput: "abcd",
			Categories: window.Categories{ToolDefinitions: 7, ToolResults: 9}, Profile: window.Balanced, Timestamp: "t"}, &e)
		Expect(entry.ThinkingTokens).To(Equal(4))
		Expect(entry.OutputTokens).To(Equal(2))
		Expect(entry.ActualInput).To(BeNil())
		Expect(entry.CacheHitRate).To(BeNil())
		Expect(entry.CumulativeCacheHitRate).To(BeNil())
		Expect(entry.EstimationErrorRate).To(BeNil())
		Expect(entry.ToolDefinitionTokens).To(Equal(7))
		Expect(entry.ToolResultTokens).To(Equal(9))
		Expect(entry.Vision.VisionEstimatorVersion).To(Equal("fallback-image-buckets/1"))
		Expect(l.HasProviderUsage()).To(BeFalse())
	})

	It("reads the first finite non-negative usage key of each group and splits provider output", func() {
		var e window.Estimator
		l := window.NewLedger("run-1")
		entry := l.Record(window.LedgerRecord{EstimatedInput: 150, Thinking: "hello world", VisibleOutput: "abcd",
			Usage: window.Usage{"prompt_eval_count": -1, "input_tokens": 200.9, "prompt_tokens": 999, "cached_tokens": 50, "eval_count": 3}}, &e)
		Expect(*entry.ActualInput).To(Equal(200))
		Expect(*entry.CachedInput).To(Equal(50))
		Expect(*entry.ProviderOutputTokens).To(Equal(3))
		Expect(entry.ThinkingTokens).To(Equal(3)) // min(3, 4)
		Expect(entry.OutputTokens).To(Equal(0))   // max(0, 3 − 3)
		Expect(*entry.CacheHitRate).To(Equal(0.25))
		Expect(*entry.EstimationErrorRate).To(Equal(0.25))
		second := l.Record(window.LedgerRecord{EstimatedInput: 100, Usage: window.Usage{"inputTokens": 100}}, &e)
		Expect(second.CumulativeActualInput).To(Equal(300))
		Expect(second.CumulativeCachedInput).To(Equal(50))
		Expect(second.CacheHitRate).To(BeNil())
		Expect(*second.CumulativeCacheHitRate).To(BeNumerically("~", 50.0/300, 1e-12))
		Expect(l.HasProviderUsage()).To(BeTrue())
		snap := l.Snapshot()
		Expect(snap.SchemaVersion).To(Equal(1))
		Expect(snap.Entries).To(HaveLen(2))
		Expect(snap.RunID).To(Equal("run-1"))
	})

	It("calibrates the observed kinds with (estimated, actual) when the provider reports input", func() {
		var e window.Estimator
		e.Text("hello world")
		l := window.NewLedger("run-1")
		l.Record(window.LedgerRecord{EstimatedInput: 100, Usage: window.Usage{"inputTokens": 200}}, &e)
		Expect(e.Factor(window.KindEnglish)).To(Equal(1.25))
	})
})
