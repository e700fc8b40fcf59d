package canon

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("CompareText", func() {
	DescribeTable("orders by UTF-16 code units",
		func(a, b string, want int) {
			Expect(CompareText(a, b)).To(Equal(want))
			Expect(CompareText(b, a)).To(Equal(-want))
		},
		Entry("equal", "abc", "abc", 0),
		Entry("empty first", "", "a", -1),
		Entry("prefix first", "ab", "abc", -1),
		Entry("ASCII", "a", "b", -1),
		Entry("upper before lower", "Z", "a", -1),
		Entry("outside the BMP before U+E000", "\U0001F600", "\uE000", -1),
		Entry("outside the BMP before U+FFFF", "\U00010000", "\uFFFF", -1),
		Entry("outside the BMP before U+FFFD", "\U0010FFFF", "\uFFFD", -1),
		Entry("outside the BMP after U+D7FF", "\U00010000", "\uD7FF", 1),
		Entry("two supplementary code points", "\U00010000", "\U0001F600", -1),
		Entry("same high surrogate, low decides", "\U0001F600", "\U0001F601", -1),
		Entry("after a common prefix", "k\U0001F600", "k\uE000", -1),
		Entry("invalid UTF-8 as U+FFFD", "\xff", "\uFFFD", 0),
	)

	It("differs from Go's byte order exactly across U+E000–U+FFFF and the supplementary planes", func() {
		Expect("\uE000" < "\U0001F600").To(BeTrue(), "Go's byte order")
		Expect(CompareText("\uE000", "\U0001F600")).To(Equal(1))
	})
})

var _ = Describe("SortStrings", func() {
	It("sorts by UTF-16 code units", func() {
		s := []string{"\uFFFF", "b", "\U0001F600", "a", "\uE000", ""}
		SortStrings(s)
		Expect(s).To(Equal([]string{"", "a", "b", "\U0001F600", "\uE000", "\uFFFF"}))
	})
})

var _ = Describe("UTF16Len", func() {
	DescribeTable("counts UTF-16 code units",
		func(s string, want int) { Expect(UTF16Len(s)).To(Equal(want)) },
		Entry("empty", "", 0),
		Entry("ASCII", "abc", 3),
		Entry("two-byte UTF-8", "é", 1),
		Entry("U+FFFF", "\uFFFF", 1),
		Entry("outside the BMP", "\U0001F600", 2),
		Entry("mixed", "a\U0001F600é", 4),
		Entry("invalid byte", "\xff", 1),
	)
})

var _ = Describe("IsBlank", func() {
	DescribeTable("follows JavaScript's trim",
		func(s string, want bool) { Expect(IsBlank(s)).To(Equal(want)) },
		Entry("empty", "", true),
		Entry("ASCII spaces", " \t\n\r\v\f", true),
		Entry("no-break space", "\u00a0", true),
		Entry("byte order mark", "\ufeff", true),
		Entry("line separators", "\u2028\u2029", true),
		Entry("Zs range", "\u2000\u200a\u3000\u202f\u205f\u1680", true),
		Entry("NEL is not JavaScript white space", "\u0085", false),
		Entry("zero-width space is not white space", "\u200b", false),
		Entry("text", "  x ", false),
		Entry("long blank", strings.Repeat(" ", 100), true),
	)

	It("is TrimJSSpace returning nothing, and TrimJSSpace keeps the inside", func() {
		Expect(TrimJSSpace("\ufeff\u3000 a\u00a0b \u2029\t")).To(Equal("a\u00a0b"))
		Expect(TrimJSSpace("\u0085x\u200b")).To(Equal("\u0085x\u200b"))
		Expect(TrimJSSpace(" \u2000\u200a ")).To(BeEmpty())
	})
})

var _ = Describe("CutUTF16", func() {
	DescribeTable("keeps at most n UTF-16 units without splitting a pair",
		func(s string, n int, want string) { Expect(CutUTF16(s, n)).To(Equal(want)) },
		Entry("ASCII", "abc", 2, "ab"),
		Entry("shorter than n", "abc", 5, "abc"),
		Entry("a pair that would straddle the cut", "a😀b", 2, "a"),
		Entry("a pair counts two units", "a😀b", 3, "a😀"),
		Entry("a BMP rune above 0x7F counts one", "é😀", 1, "é"),
		Entry("zero", "😀", 0, ""),
	)
})
