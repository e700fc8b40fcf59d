package canon

import (
	"math"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("hashes", func() {
	It("Hash is SHA-256 over the canonical JSON", func() {
		h, err := Hash(map[string]any{"b": 1, "a": []any{0.5, "<&>"}})
		Expect(err).NotTo(HaveOccurred())
		// sha256 of {"a":[0.5,"<&>"],"b":1}
		Expect(h).To(Equal("sha256:5e609282405a38ab320c8b111f991c5c7d154594f3a51d3bd11d0896a79e8cc8"))
		Expect(h).To(MatchRegexp(`^sha256:[0-9a-f]{64}$`))
	})

	It("Hash rejects non-finite numbers", func() {
		_, err := Hash(math.NaN())
		Expect(err).To(MatchError(ErrNonFinite))
		_, err = ContextHash(math.Inf(1))
		Expect(err).To(MatchError(ErrNonFinite))
	})

	It("HashBytes and HashText hash raw bytes", func() {
		Expect(HashBytes(nil)).To(Equal("sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"))
		Expect(HashText("")).To(Equal(HashBytes([]byte{})))
	})

	DescribeTable("ContextHashText runs two lanes over UTF-16 code units",
		func(text, want string) { Expect(ContextHashText(text)).To(Equal(want)) },
		Entry("empty: the two offsets", "", "fnv1a64:811c9dc59e3779b9"),
		Entry("one unit", "a", "fnv1a64:e40c292cf89c5d48"),
		Entry("JSON text", `{"a":1}`, "fnv1a64:8b9e4511bb478c75"),
		Entry("a surrogate pair is two units", "\U0001F600", "fnv1a64:cb31c4b82f094664"),
		Entry("U+E000 is one unit", "\uE000", "fnv1a64:04d9fd1f3a5c3a53"),
	)

	It("ContextHash hashes the canonical JSON", func() {
		h, err := ContextHash(map[string]int{"a": 1})
		Expect(err).NotTo(HaveOccurred())
		Expect(h).To(Equal("fnv1a64:8b9e4511bb478c75"))
	})
})
