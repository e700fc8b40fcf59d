package window_test

import (
	"encoding/json"
	"errors"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/window"
)

func tail(f float64) *float64 { return &f }

var _ = Describe("BoundToolOutput (CONTRACTS §12.6)", func() {
	It("returns output within both limits unchanged, so valid JSON stays byte-identical", func() {
		content := `{"ok":true,"provenance":{"trust":"untrusted_external"},"results":["a","b"],"truncated":false}`
		b, err := window.BoundToolOutput(content, window.DefaultLimits(), window.BoundOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(b).To(Equal(window.Bounded{Content: content, OriginalBytes: len(content), OriginalTokens: b.OriginalTokens,
			ReturnedBytes: len(content), ReturnedTokens: b.OriginalTokens}))
		Expect(json.Valid([]byte(b.Content))).To(BeTrue())
	})

	It("bounds and points to the complete artifact (original test)", func() {
		var spilled []string
		content := strings.Repeat("head ", 500) + strings.Repeat("tail ", 500)
		b, err := window.BoundToolOutput(content, window.Limits{MaxBytes: 700, MaxTokens: 180, TailFraction: tail(0.25)},
			window.BoundOptions{Spill: func(c, ct string) (window.Artifact, error) {
				spilled = append(spilled, c)
				Expect(ct).To(Equal("text/plain"))
				return window.Artifact{ID: "artifact-1", MimeType: "text/plain"}, nil
			}})
		Expect(err).NotTo(HaveOccurred())
		Expect(b.Truncated).To(BeTrue())
		Expect(b.ReturnedBytes).To(BeNumerically("<=", 700))
		Expect(b.ReturnedTokens).To(BeNumerically("<=", 180))
		Expect(b.Content).To(ContainSubstring("artifact://artifact-1"))
		Expect(b.Content).To(HavePrefix("head head"))
		Expect(b.Content).To(HaveSuffix("tail tail "))
		Expect(spilled).To(Equal([]string{content}))
		Expect(*b.Artifact).To(Equal(window.Artifact{ID: "artifact-1", MimeType: "text/plain"}))
		Expect(b.OriginalBytes).To(Equal(5000))
	})

	It("keeps the tail end intact even when the estimator drifts (original test)", func() {
		sentinel := `"truncated":true,"derivedMutations":[]}`
		content := strings.Repeat("2026-09-05T00:00:00Z INFO request completed status=200\n", 9000) + sentinel
		b, err := window.BoundToolOutput(content, window.Limits{MaxBytes: 32_000, MaxTokens: 6_000, TailFraction: tail(0.25)}, window.BoundOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(b.Truncated).To(BeTrue())
		Expect(b.Content).To(ContainSubstring(`"truncated":true`))
		Expect(b.Content).To(HaveSuffix(sentinel))
		Expect(b.ReturnedBytes).To(BeNumerically("<=", 32_000))
		Expect(b.ReturnedTokens).To(BeNumerically("<=", 6_400))
		Expect(b.Content).To(ContainSubstring(window.TruncationMarker("")))
	})

	It("keeps the fields a command writes last (LAB §20.2) and loses them without a tail", func() {
		out := map[string]any{"stdout": strings.Repeat("line of build output\n", 5000), "exitCode": 1}
		body, _ := json.Marshal(out)
		content := strings.TrimSuffix(string(body), "}") + `,"truncated":true}` // truncated is the last key
		limits := window.Limits{MaxBytes: 4000, MaxTokens: 1000}
		b, err := window.BoundToolOutput(content, limits, window.BoundOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(b.Content).To(HaveSuffix(`,"truncated":true}`))
		Expect(b.Content).To(HavePrefix(`{"exitCode":1,"stdout":"line of build output`))

		broken := limits
		broken.TailFraction = tail(0)
		c, err := window.BoundToolOutput(content, broken, window.BoundOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Content).NotTo(ContainSubstring(`"truncated":true`), "the trailing-field rule is what keeps it")
	})

	It("clamps the tail fraction to 0.5", func() {
		content := strings.Repeat("a", 10_000) + strings.Repeat("z", 10_000)
		half, _ := window.BoundToolOutput(content, window.Limits{MaxBytes: 2000, MaxTokens: 100_000, TailFraction: tail(0.5)}, window.BoundOptions{})
		more, _ := window.BoundToolOutput(content, window.Limits{MaxBytes: 2000, MaxTokens: 100_000, TailFraction: tail(0.9)}, window.BoundOptions{})
		Expect(more.Content).To(Equal(half.Content))
		z := strings.Count(half.Content, "z")
		Expect(z).To(Equal((2000 - len(window.TruncationMarker(""))) / 2))
	})

	It("writes the exact markers", func() {
		Expect(window.TruncationMarker("")).To(Equal("\n…[GALAXY OUTPUT TRUNCATED. Use pagination for the complete result.]…\n"))
		Expect(window.TruncationMarker("a1")).To(Equal("\n…[GALAXY OUTPUT TRUNCATED. Complete output: artifact://a1.]…\n"))
	})

	DescribeTable("rejects limits that are not finite numbers ≥ 1",
		func(l window.Limits, msg string) {
			_, err := window.BoundToolOutput("x", l, window.BoundOptions{})
			Expect(err).To(MatchError(msg))
		},
		Entry("zero bytes", window.Limits{MaxBytes: 0, MaxTokens: 10}, "maxBytes must be a positive finite number."),
		Entry("fractional tokens", window.Limits{MaxBytes: 10, MaxTokens: 0.5}, "maxTokens must be a positive finite number."),
	)

	It("floors limits and returns the spill error unchanged", func() {
		b, err := window.BoundToolOutput("abcd", window.Limits{MaxBytes: 4.9, MaxTokens: 2.9}, window.BoundOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(b.Truncated).To(BeFalse())
		boom := errors.New("spill failed")
		_, err = window.BoundToolOutput(strings.Repeat("x", 100), window.Limits{MaxBytes: 10, MaxTokens: 10},
			window.BoundOptions{Spill: func(string, string) (window.Artifact, error) { return window.Artifact{}, boom }})
		Expect(err).To(BeIdenticalTo(boom))
	})

	It("has the runtime defaults and converts a tool result's outputLimits", func() {
		d := window.DefaultLimits()
		Expect([]float64{d.MaxBytes, d.MaxTokens, *d.TailFraction}).To(Equal([]float64{48000, 12000, 0.25}))
		l := window.LimitsFromPort(port.OutputLimits{MaxBytes: 10, MaxTokens: 5})
		Expect(l.TailFraction).To(BeNil())
		Expect([]float64{l.MaxBytes, l.MaxTokens}).To(Equal([]float64{10, 5}))
	})

	It("never cuts inside a code point's UTF-8 bytes", func() {
		content := strings.Repeat("đường 😀 ", 2000)
		b, err := window.BoundToolOutput(content, window.Limits{MaxBytes: 999, MaxTokens: 300}, window.BoundOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(b.ReturnedBytes).To(BeNumerically("<=", 999))
		Expect(strings.ToValidUTF8(b.Content, "?")).To(Equal(b.Content))
	})
})
