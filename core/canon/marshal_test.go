package canon

import (
	"encoding/json"
	"math"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("Marshal", func() {
	DescribeTable("writes RFC 8785 canonical JSON",
		func(v any, want string) {
			got, err := Marshal(v)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(got)).To(Equal(want))
		},
		Entry("sorted keys, no whitespace", map[string]any{"b": 1, "a": []any{true, nil}}, `{"a":[true,null],"b":1}`),
		Entry("key outside the BMP before U+E000", map[string]int{"\uE000": 1, "\U0001F600": 2, "z": 3},
			"{\"z\":3,\"\U0001F600\":2,\"\uE000\":1}"),
		Entry("nested objects sorted", json.RawMessage(`{"b":{"y":1,"x":2},"a":0}`), `{"a":0,"b":{"x":2,"y":1}}`),
		Entry("struct tags and omitempty", struct {
			Z string `json:"z"`
			A int    `json:"a,omitempty"`
			M string `json:"m"`
		}{Z: "z", M: "m"}, `{"m":"m","z":"z"}`),
		Entry("<, >, & stay literal", "<a&b>", `"<a&b>"`),
		Entry("U+2028 and U+2029 stay literal", "a\u2028b\u2029", "\"a\u2028b\u2029\""),
		Entry("quote and backslash", `"\`, `"\"\\"`),
		Entry("short escapes", "\b\f\n\r\t", `"\b\f\n\r\t"`),
		Entry("other controls as lowercase \\u00xx", "\x00\x01\x1f", `"\u0000\u0001\u001f"`),
		Entry("DEL stays literal", "\x7f", "\"\x7f\""),
		Entry("non-ASCII stays literal", "é\U0001F600", "\"é\U0001F600\""),
		Entry("escaped input is unescaped", json.RawMessage(`"\u00e9\ud83d\ude00\u003c\/"`), "\"é\U0001F600</\""),
		Entry("integer", 1, `1`),
		Entry("1.0 prints as 1", json.RawMessage(`1.0`), `1`),
		Entry("half", 0.5, `0.5`),
		Entry("negative zero prints as 0", math.Copysign(0, -1), `0`),
		Entry("1e21 uses an exponent", 1e21, `1e+21`),
		Entry("1e20 does not", 1e20, `100000000000000000000`),
		Entry("small", 1e-7, `1e-7`),
		Entry("0.000001", 0.000001, `0.000001`),
		Entry("shortest round trip", json.RawMessage(`0.300000000000000040`), `0.30000000000000004`),
		Entry("exponent input", json.RawMessage(`[1E2,-5e-1]`), `[100,-0.5]`),
		Entry("2^53+1 loses precision as in JavaScript", json.RawMessage(`9007199254740993`), `9007199254740992`),
		Entry("raw message with whitespace", json.RawMessage(" { \"b\" : [ 1 , 2 ] , \"a\" : \"x\" } "), `{"a":"x","b":[1,2]}`),
		Entry("nil map is null", map[string]int(nil), `null`),
		Entry("empty array and object", []any{[]any{}, map[string]any{}}, `[[],{}]`),
		Entry("invalid UTF-8 in a Go string becomes U+FFFD", "a\xffb", "\"a\uFFFDb\""),
	)

	DescribeTable("rejects non-finite numbers",
		func(v any) {
			_, err := Marshal(v)
			Expect(err).To(MatchError(ErrNonFinite))
		},
		Entry("NaN", math.NaN()),
		Entry("+Inf", math.Inf(1)),
		Entry("-Inf nested", map[string]any{"a": []any{math.Inf(-1)}}),
		Entry("NaN in an Object", Object{{Key: "a", Value: math.NaN()}}),
		Entry("overflowing number text", json.RawMessage(`1e400`)),
	)

	DescribeTable("rejects malformed JSON text",
		func(raw string, msg string) {
			_, err := Marshal(json.RawMessage(raw))
			Expect(err).To(MatchError(ContainSubstring(msg)))
		},
		Entry("duplicate key", `{"a":1,"a":2}`, `duplicate object key "a"`),
		Entry("invalid JSON", `{"a":}`, "invalid character"),
	)

	It("rejects JSON text that is not UTF-8", func() {
		_, err := Parse([]byte("\"\xff\""))
		Expect(err).To(MatchError("canon: JSON text is not valid UTF-8"))
	})

	It("rejects data after the value", func() {
		_, err := Parse([]byte(`1 2`))
		Expect(err).To(MatchError("canon: unexpected data after the JSON value"))
	})

	It("rejects unsupported Go values", func() {
		_, err := Marshal(make(chan int))
		Expect(err).To(MatchError(ContainSubstring("canon: json: unsupported type")))
	})

	It("round-trips a parsed tree in document order through Object", func() {
		tree, err := Parse([]byte(`{"b":1,"a":{"d":[],"c":null}}`))
		Expect(err).NotTo(HaveOccurred())
		doc, err := json.Marshal(tree)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(doc)).To(Equal(`{"b":1,"a":{"d":[],"c":null}}`))
		v, ok := tree.(Object).Get("a")
		Expect(ok).To(BeTrue())
		Expect(v).To(Equal(Object{{Key: "d", Value: []any{}}, {Key: "c", Value: nil}}))
		_, ok = tree.(Object).Get("z")
		Expect(ok).To(BeFalse())
	})
})

var _ = Describe("Stringify", func() {
	It("writes compact JSON without HTML escaping and without a newline", func() {
		b, err := Stringify(map[string]any{"b": "<&>", "a": []int{1, 2}})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(b)).To(Equal(`{"a":[1,2],"b":"<&>"}`))
	})
	It("fails on a value encoding/json cannot encode", func() {
		_, err := Stringify(func() {})
		Expect(err).To(HaveOccurred())
	})
})
