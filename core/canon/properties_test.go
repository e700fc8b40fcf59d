package canon

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/galaxy-stack/conform/internal/rapidtest"
	"github.com/galaxy-stack/conform/internal/suite"
	"github.com/gowebpki/jcs"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"pgregory.net/rapid"
)

// runeGen draws runes from the ranges where canonical JSON and UTF-16
// ordering are easy to get wrong: ASCII, controls, characters that HTML-safe
// encoders escape, U+2028/U+2029, U+E000–U+FFFF and the supplementary
// planes.
func runeGen() *rapid.Generator[rune] { return runes }

var runes = rapid.OneOf(
	rapid.RuneFrom([]rune("ab\"\\<>&\u2028\u2029\x7f ")),
	runeRange(0x00, 0x1f),
	runeRange(0x20, 0x7e),
	runeRange(0x80, 0xd7ff),
	runeRange(0xe000, 0xffff),
	runeRange(0x10000, 0x10ffff),
)

// textGen draws short strings of runeGen runes.
func textGen(maxLen int) *rapid.Generator[string] {
	return rapid.StringOfN(runeGen(), 0, maxLen, -1)
}

// valueGen draws a JSON-shaped Go value (nil, bool, float64, string,
// []any, map[string]any) nested up to depth levels.
func valueGen(depth int) *rapid.Generator[any] {
	scalars := []*rapid.Generator[any]{
		rapid.Just[any](nil),
		rapid.Bool().AsAny(),
		rapid.Map(rapid.Int64Range(-1<<53, 1<<53), func(i int64) any { return float64(i) }),
		rapid.Map(rapid.Float64(), func(f float64) any {
			if math.IsNaN(f) || math.IsInf(f, 0) {
				return 0.0
			}
			return f
		}),
		textGen(6).AsAny(),
	}
	if depth == 0 {
		return rapid.OneOf(scalars...)
	}
	return rapid.OneOf(append(scalars,
		rapid.Map(rapid.SliceOfN(valueGen(depth-1), 0, 4), func(s []any) any { return s }),
		rapid.Map(rapid.MapOfN(textGen(2), valueGen(depth-1), 0, 6), func(m map[string]any) any { return m }),
	)...)
}

// utf16Compare is the reference order: compare the UTF-16 encodings.
func utf16Compare(a, b string) int {
	return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
}

// propMatchesJCS: e's output equals gowebpki/jcs's Transform.
func propMatchesJCS(e encoder) func(*rapid.T) {
	return func(t *rapid.T) {
		v := valueGen(3).Draw(t, "value")
		raw, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("json.Marshal: %v", err)
		}
		want, err := jcs.Transform(raw)
		if err != nil {
			t.Fatalf("jcs.Transform: %v", err)
		}
		got, err := e.marshal(v)
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		if string(got) != string(want) {
			t.Fatalf("canonical JSON differs from JCS:\n got %q\nwant %q", got, want)
		}
	}
}

// propKeysSorted: every object of e's output lists its keys in strictly
// ascending UTF-16 order.
func propKeysSorted(e encoder) func(*rapid.T) {
	return func(t *rapid.T) {
		v := valueGen(3).Draw(t, "value")
		out, err := e.marshal(v)
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		tree, err := Parse(out)
		if err != nil {
			t.Fatalf("parse: %v", err)
		}
		walkObjects(tree, func(o Object) {
			for i := 1; i < len(o); i++ {
				if utf16Compare(o[i-1].Key, o[i].Key) >= 0 {
					t.Fatalf("keys out of UTF-16 order: %q before %q", o[i-1].Key, o[i].Key)
				}
			}
		})
	}
}

// propOrderIndependent: shuffling the members of every object does not
// change e's output, and marshalling the output again is the identity.
func propOrderIndependent(e encoder) func(*rapid.T) {
	return func(t *rapid.T) {
		v := valueGen(3).Draw(t, "value")
		raw, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("json.Marshal: %v", err)
		}
		tree, err := Parse(raw)
		if err != nil {
			t.Fatalf("parse: %v", err)
		}
		shuffled := shuffle(t, tree)
		a, err := e.marshal(tree)
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		b, err := e.marshal(shuffled)
		if err != nil {
			t.Fatalf("marshal shuffled: %v", err)
		}
		if string(a) != string(b) {
			t.Fatalf("member order changed the output:\n%q\n%q", a, b)
		}
		again, err := e.marshal(json.RawMessage(a))
		if err != nil || string(again) != string(a) {
			t.Fatalf("not idempotent: %q -> %q (%v)", a, again, err)
		}
	}
}

// propCompare: cmp agrees with the UTF-16 reference order.
func propCompare(cmp func(a, b string) int) func(*rapid.T) {
	return func(t *rapid.T) {
		a := textGen(4).Draw(t, "a")
		b := textGen(4).Draw(t, "b")
		if got, want := sign(cmp(a, b)), utf16Compare(a, b); got != want {
			t.Fatalf("compare(%q, %q) = %d, want %d", a, b, got, want)
		}
	}
}

// propLen: length agrees with the number of UTF-16 code units.
func propLen(length func(string) int) func(*rapid.T) {
	return func(t *rapid.T) {
		s := textGen(8).Draw(t, "s")
		if got, want := length(s), len(utf16.Encode([]rune(s))); got != want {
			t.Fatalf("length(%q) = %d, want %d", s, got, want)
		}
	}
}

// shuffle returns tree with the members of every object permuted.
func shuffle(t *rapid.T, tree any) any {
	switch x := tree.(type) {
	case []any:
		out := make([]any, len(x))
		for i, item := range x {
			out[i] = shuffle(t, item)
		}
		return out
	case Object:
		out := make(Object, len(x))
		perm := rapid.Permutation(indices(len(x))).Draw(t, "permutation")
		for i, j := range perm {
			out[i] = Member{Key: x[j].Key, Value: shuffle(t, x[j].Value)}
		}
		return out
	}
	return tree
}

func indices(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

func walkObjects(tree any, f func(Object)) {
	switch x := tree.(type) {
	case []any:
		for _, item := range x {
			walkObjects(item, f)
		}
	case Object:
		f(x)
		for _, m := range x {
			walkObjects(m.Value, f)
		}
	}
}

func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}

// runeRange draws runes in lo..hi.
func runeRange(lo, hi rune) *rapid.Generator[rune] {
	return rapid.Map(rapid.Int32Range(lo, hi), func(r int32) rune { return r })
}

func TestPropertyMatchesJCS(t *testing.T) { rapid.Check(t, propMatchesJCS(canonicalEncoder)) }
func TestPropertyKeysSorted(t *testing.T) { rapid.Check(t, propKeysSorted(canonicalEncoder)) }
func TestPropertyOrderIndependent(t *testing.T) {
	rapid.Check(t, propOrderIndependent(canonicalEncoder))
}
func TestPropertyCompareText(t *testing.T) { rapid.Check(t, propCompare(CompareText)) }
func TestPropertyUTF16Len(t *testing.T)    { rapid.Check(t, propLen(UTF16Len)) }

var _ = Describe("the properties catch broken variants", func() {
	utf8Order := encoder{compare: strings.Compare}
	documentOrder := encoder{compare: nil}

	// The UTF-8 variant differs only on keys that put a character of
	// U+E000..U+FFFF and one beyond U+FFFF at the same position: rare in
	// a hundred random values (it escaped one run in about seven), so
	// these two run enough cases never to miss it.
	It("sorting keys by UTF-8 bytes breaks JCS equality", func() {
		expectFailsWithin("utf8-order-jcs", 2000, propMatchesJCS(utf8Order))
	})
	It("sorting keys by UTF-8 bytes breaks UTF-16 key order", func() {
		expectFailsWithin("utf8-order-sorted", 2000, propKeysSorted(utf8Order))
	})
	It("keeping document order breaks order independence", func() {
		suite.ExpectPropertyFails("document-order", 3*time.Second, propOrderIndependent(documentOrder))
	})
	It("Go's string comparison breaks CompareText", func() {
		suite.ExpectPropertyFails("strings-compare", 3*time.Second, propCompare(strings.Compare))
	})
	It("counting runes breaks UTF16Len", func() {
		suite.ExpectPropertyFails("rune-count", 3*time.Second, propLen(utf8.RuneCountInString))
	})
	It("the UTF-8 variant is wrong on a concrete key pair", func() {
		v := map[string]int{"\uE000": 1, "\U0001F600": 2}
		good, err := canonicalEncoder.marshal(v)
		Expect(err).NotTo(HaveOccurred())
		bad, err := utf8Order.marshal(v)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(good)).To(Equal("{\"\U0001F600\":2,\"\uE000\":1}"))
		Expect(string(bad)).NotTo(Equal(string(good)))
	})
})

// expectFailsWithin expects prop to fail within checks random cases.
func expectFailsWithin(name string, checks int, prop func(*rapid.T)) {
	failed, _ := rapidtest.Run(name, map[string]string{
		"rapid.nofailfile": "true", "rapid.shrinktime": "3s", "rapid.checks": strconv.Itoa(checks),
	}, prop)
	ExpectWithOffset(1, failed).To(BeTrue(), "the property did not catch the broken variant %q in %d cases", name, checks)
}
