package window_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/window"
)

var _ = Describe("Classify (CONTRACTS §12.2)", func() {
	DescribeTable("content classes",
		func(text string, want window.ContentKind) { Expect(window.Classify(text)).To(Equal(want)) },
		Entry("a JSON object", `{"a":1}`, window.KindJSON),
		Entry("a JSON array after trimming", "  [1,2]\n", window.KindJSON),
		Entry("broken JSON falls through to the brace marker", `{not json`, window.KindCode),
		Entry("a JSON string is not json", `"string"`, window.KindEnglish),
		Entry("a whole keyword", "const x = 1", window.KindCode),
		Entry("a keyword inside a word is not one", "constant value", window.KindEnglish),
		Entry("an arrow", "x => y", window.KindCode),
		Entry("a semicolon", "a;b", window.KindCode),
		Entry("def", "def main", window.KindCode),
		Entry("a Vietnamese diacritic", "Xin chào thế giới", window.KindVietnamese),
		Entry("an upper-case Vietnamese letter", "ĐƯỜNG", window.KindVietnamese),
		Entry("plain English", "hello world", window.KindEnglish),
	)
})

var _ = Describe("Estimator (CONTRACTS §12.2)", func() {
	DescribeTable("ceil(len16 / charsPerToken × 1.15 × factor)",
		func(text string, want int) {
			var e window.Estimator
			Expect(e.Text(text)).To(Equal(want))
		},
		Entry("empty is 0", "", 0),
		Entry("english 4 units → ceil(1.15)", "abcd", 2),
		Entry("english 40 units → ceil(11.5)", strings.Repeat("a", 40), 12),
		Entry("code 12 units / 3", "const x = 1;", 5),
		Entry("json 7 units / 2.8", `{"a":1}`, 3),
		Entry("vietnamese 4 units / 2.5", "chào", 2),
		Entry("a non-BMP rune is 2 UTF-16 units", "😀", 1),
	)

	It("forces a kind with TextAs", func() {
		var e window.Estimator
		Expect(e.TextAs(strings.Repeat("a", 40), window.KindCode)).To(Equal(16)) // 40/3×1.15 = 15.33
	})

	It("calibrates a kind as previous × 0.75 + observed × 0.25, clamped to [0.5, 2]", func() {
		var e window.Estimator
		e.Calibrate(window.KindEnglish, 100, 200)
		Expect(e.Factor(window.KindEnglish)).To(Equal(1.25))
		Expect(e.Text(strings.Repeat("a", 40))).To(Equal(15)) // ceil(11.5 × 1.25)
		e.Calibrate(window.KindJSON, 1, 100)
		Expect(e.Factor(window.KindJSON)).To(Equal(2.0))
		e.Calibrate(window.KindCode, 100, 1)
		Expect(e.Factor(window.KindCode)).To(BeNumerically("~", 0.7525, 1e-12))
		for range 20 {
			e.Calibrate(window.KindCode, 100, 1)
		}
		Expect(e.Factor(window.KindCode)).To(Equal(0.5))
		e.Calibrate(window.KindVietnamese, 0, 10)
		e.Calibrate(window.KindVietnamese, 10, 0)
		Expect(e.Factor(window.KindVietnamese)).To(Equal(1.0))
	})

	It("calibrates only the kinds observed since the last calibration, then forgets them", func() {
		var e window.Estimator
		e.Text("hello world")
		e.CalibrateObserved(100, 200)
		Expect(e.Factor(window.KindEnglish)).To(Equal(1.25))
		Expect(e.Factor(window.KindCode)).To(Equal(1.0))
		e.CalibrateObserved(100, 200)
		Expect(e.Factor(window.KindEnglish)).To(Equal(1.25))
	})

	It("prices a message as 6 + content + thinking + tool-call JSON, with [] for none", func() {
		var e window.Estimator
		Expect(e.Messages([]port.Message{{Role: "user", Content: "hello world"}})).To(Equal(6 + 4 + 1))
		asst := assistantCalling(call("c1", "read_file", map[string]any{"path": "a.go"}))
		// [{"toolCallId":"c1","name":"read_file","arguments":{"path":"a.go"}}] is 68 units of json.
		Expect(e.Messages([]port.Message{asst})).To(Equal(6 + 28))
		asst.Thinking = "hello world"
		Expect(e.Messages([]port.Message{asst})).To(Equal(6 + 4 + 28))
		// Thinking of a non-assistant message is not priced.
		Expect(e.Messages([]port.Message{{Role: "user", Content: "hello world", Thinking: "hello world"}})).To(Equal(11))
	})

	It("prices tool definitions as json", func() {
		var e window.Estimator
		defs := []port.ToolDefinition{{Type: "function", Function: port.FunctionSpec{Name: "read_file", Description: "Read a file; return it.",
			Parameters: map[string]any{"type": "object"}}}}
		text := `[{"type":"function","function":{"name":"read_file","description":"Read a file; return it.","parameters":{"type":"object"}}}]`
		var ref window.Estimator
		Expect(e.ToolDefinitions(defs)).To(Equal(ref.TextAs(text, window.KindJSON)))
		Expect(e.ToolDefinitions(nil)).To(Equal(1))
	})
})

var _ = Describe("VisionEstimator (CONTRACTS §12.2)", func() {
	DescribeTable("buckets by pixels, else by bytes",
		func(im window.Image, want window.VisionBucket) { Expect(im.Bucket()).To(Equal(want)) },
		Entry("256000 px", window.Image{DecodedPixels: 256_000}, window.BucketThumbnail),
		Entry("256001 px", window.Image{DecodedPixels: 256_001}, window.BucketSmall),
		Entry("1000×1000", window.Image{Width: 1000, Height: 1000}, window.BucketSmall),
		Entry("1000001 px", window.Image{DecodedPixels: 1_000_001}, window.BucketMedium),
		Entry("4000000 px", window.Image{DecodedPixels: 4_000_000}, window.BucketMedium),
		Entry("4000001 px", window.Image{DecodedPixels: 4_000_001}, window.BucketLarge),
		Entry("pixels win over bytes", window.Image{DecodedPixels: 10, ByteLength: 9_000_000}, window.BucketThumbnail),
		Entry("100000 bytes", window.Image{ByteLength: 100_000}, window.BucketThumbnail),
		Entry("100001 bytes", window.Image{ByteLength: 100_001}, window.BucketSmall),
		Entry("500001 bytes", window.Image{ByteLength: 500_001}, window.BucketMedium),
		Entry("2000001 bytes", window.Image{ByteLength: 2_000_001}, window.BucketLarge),
		Entry("nothing known", window.Image{}, window.BucketThumbnail),
	)

	DescribeTable("data-URL bytes",
		func(url string, want int) { Expect(window.DataURLBytes(url)).To(Equal(want)) },
		Entry("no comma", "data:image/png;base64", 0),
		Entry("base64 without padding", "data:image/png;base64,AAAA", 3),
		Entry("one pad", "data:image/png;base64,AAA=", 2),
		Entry("two pads", "data:image/png;base64,AA==", 1),
		Entry("not base64: UTF-8 bytes", "data:text/plain,héllo", 6),
	)

	It("prices 800/1800/3200/6000 and calibrates present buckets", func() {
		var v window.VisionEstimator
		ims := []window.Image{{ArtifactID: "a", DecodedPixels: 1}, {ArtifactID: "b", ByteLength: 200_000},
			{ArtifactID: "c", DecodedPixels: 2_000_000}, {ArtifactID: "d", DecodedPixels: 5_000_000}}
		acc := v.Estimate(ims)
		Expect(acc.EstimatedVisionTokens).To(Equal(800 + 1800 + 3200 + 6000))
		Expect(acc.ImageArtifactIDs).To(Equal([]string{"a", "b", "c", "d"}))
		Expect(acc.ImageCount).To(Equal(4))
		Expect(acc.TotalDecodedPixels).To(Equal(7_000_001))
		Expect(acc.TotalImageBytes).To(Equal(200_000))
		Expect(acc.VisionEstimatorVersion).To(Equal("fallback-image-buckets/1"))
		Expect(acc.ActualPromptTokenDelta).To(BeNil())

		thumb := []window.Image{{ArtifactID: "a", DecodedPixels: 1}}
		after := v.Calibrate(thumb, 1600) // ratio 2 → 0.75 + 0.5
		Expect(after.EstimatedVisionTokens).To(Equal(1000))
		Expect(*after.ActualPromptTokenDelta).To(Equal(1600))
		Expect(after.VisionEstimatorVersion).To(Equal("calibrated-image-buckets/1.1"))
		Expect(v.Estimate(ims).EstimatedVisionTokens).To(Equal(1000 + 1800 + 3200 + 6000))
		v.Calibrate(thumb, 1) // ratio clamps to 0.5: 1.25 × 0.75 + 0.125
		Expect(v.Estimate(thumb).EstimatedVisionTokens).To(Equal(850))
		Expect(v.Calibrate(nil, 100).VisionEstimatorVersion).To(Equal("calibrated-image-buckets/1.2"))
	})
})
