package research

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("readable text", func() {
	It("keeps the title and the visible text, one line per block", func() {
		title, text := readableHTML([]byte(`<!doctype html><html><head><title> Retry
 &amp; back-off </title><style>p{color:red}</style><script>alert("x")</script></head>
<body><h1>Heading</h1><p>First <b>bold</b>  word.<br>Second line</p>
<noscript>enable js</noscript><svg><text>drawn</text></svg>
<ul><li>one</li><li>two &lt;3</li></ul><template><p>hidden</p></template></body></html>`))
		Expect(title).To(Equal("Retry & back-off"))
		Expect(text).To(Equal("Heading\nFirst bold word.\nSecond line\none\ntwo <3"))
	})

	It("is deterministic and never yields invalid UTF-8", func() {
		doc := []byte("<p>caf&eacute; &#xD800; na\xefve</p>")
		_, a := readableHTML(doc)
		_, b := readableHTML(doc)
		Expect(a).To(Equal(b))
		Expect(utf8.ValidString(a)).To(BeTrue())
	})

	It("cuts on a code-point boundary", func() {
		s, cut := boundBytes("aé€😀", 4)
		Expect(s).To(Equal("aé"))
		Expect(cut).To(BeTrue())
		s, cut = boundBytes("abc", 3)
		Expect(s).To(Equal("abc"))
		Expect(cut).To(BeFalse())
		Expect(trimIncomplete([]byte("a€")[:3])).To(Equal([]byte("a")))
		Expect(trimIncomplete([]byte("a€"))).To(Equal([]byte("a€")))
		Expect(trimIncomplete([]byte{'a', 0xff})).To(Equal([]byte{'a', 0xff}), "an invalid byte is left for validation")
	})
})

var _ = Describe("output shaping", func() {
	It("fits a fetch output under both limits, keeping JSON valid and the hash of what is kept", func() {
		p := Page{URL: "https://go.dev/", Title: "Go", Content: strings.Repeat("välue ", 4000), MimeType: "text/plain; charset=utf-8"}
		l := Limits{MaxBytes: 32000, MaxTokens: 6000}
		Expect(l.Fits(p)).To(BeFalse())
		o, err := ShapeFetch(p, "1970-01-01T00:00:00.000Z", l)
		Expect(err).NotTo(HaveOccurred())
		Expect(l.Fits(o)).To(BeTrue())
		Expect(o.Truncated).To(BeTrue())
		Expect(o.ContentHash).To(Equal(sha256Hex(o.Content)))
		Expect(o.Provenance).To(Equal(Provenance{Source: "https://go.dev/", Trust: TrustExternal, RetrievedAt: "1970-01-01T00:00:00.000Z", ContentHash: o.ContentHash}))
		text, err := CompactJSON(o)
		Expect(err).NotTo(HaveOccurred())
		Expect(json.Valid([]byte(text))).To(BeTrue())
		Expect(text).To(HavePrefix(`{"url":"https://go.dev/","title":"Go","content":"välue`))
		src := FetchSource(o)
		Expect(src.Kind).To(Equal("fetch"))
		Expect(*src.ContentHash).To(Equal(o.ContentHash))
		Expect(utf8.RuneCountInString(src.Summary)).To(Equal(FetchSummaryRunes))
	})

	It("fails when the metadata alone does not fit", func() {
		_, err := ShapeFetch(Page{URL: "https://go.dev/" + strings.Repeat("a", 400), Content: "x"}, "t", Limits{MaxBytes: 300})
		Expect(err).To(MatchError(ContainSubstring("exceeds the structured output budget")))
	})

	It("shortens snippets, then drops hits, to fit a search output", func() {
		snippet := strings.Repeat("snippet text ", 300)
		h := Hits{Provider: "p", Hits: []Hit{
			{Title: "A", URL: "https://a.dev/", Snippet: &snippet},
			{Title: "B", URL: "https://b.dev/"},
		}}
		big := ShapeSearch(h, "t", Limits{})
		Expect(big.Truncated).To(BeFalse())
		Expect(*big.Results[0].Snippet).To(Equal(snippet))
		o := ShapeSearch(h, "t", Limits{MaxBytes: 4000, MaxTokens: 1000})
		Expect(Limits{MaxBytes: 4000, MaxTokens: 1000}.Fits(o)).To(BeTrue())
		Expect(o.Truncated).To(BeTrue())
		Expect(o.Results).To(HaveLen(2))
		Expect(len(*o.Results[0].Snippet)).To(BeNumerically("<", len(snippet)))
		tiny := ShapeSearch(h, "t", Limits{MaxBytes: 300})
		Expect(len(tiny.Results)).To(BeNumerically("<", 2))
		srcs := SearchSources(o)
		Expect(srcs).To(HaveLen(2))
		Expect(srcs[0].ContentHash).To(BeNil())
		Expect(srcs[1].Summary).To(Equal("B"), "a hit without a snippet is summarised by its title")
		Expect(srcs[0].Truncated).To(BeTrue())
	})
})
