package prompt_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"pgregory.net/rapid"

	"github.com/galaxy-stack/conform/core/prompt"
	"github.com/galaxy-stack/conform/internal/rapidtest"
)

// The reference patterns of the content classes (CONTRACTS §12.2): the
// scans of ClassifyText must answer exactly as these do.
var (
	refCodeMarkers     = regexp.MustCompile(`=>|\b(?:const|let|var|function|class|interface|return|import|export|def|fn|impl)\b|[{};]`)
	refVietnameseMarks = regexp.MustCompile(`(?i)[àáạảãâầấậẩẫăằắặẳẵèéẹẻẽêềếệểễìíịỉĩòóọỏõôồốộổỗơờớợởỡùúụủũưừứựửữỳýỵỷỹđ]`)
)

// classifyPieces are the pieces the text generator strings together, by
// kind: every keyword and keywords with a word character glued on either
// side; the markers and their halves; separators; word characters;
// Vietnamese letters in both cases, other non-ASCII letters and runes whose
// case folds to ASCII; invalid UTF-8. A piece is drawn by kind first, so
// each marker is met often.
var classifyPieces = [][]string{
	{"const", "let", "var", "function", "class", "interface", "return", "import", "export", "def", "fn", "impl",
		"Return", "fnx", "_fn", "fn_", "1fn", "fn1", "returned", "xlet", "impl2"},
	{"=>", "=", ">", "{", "}", ";"},
	{" ", "\t", "\n", "\u00a0", "-", ".", ":", "[", "]", "\""},
	{"_", "a", "Z", "9", "word"},
	{"à", "Ạ", "đ", "Đ", "ư", "Ữ", "é", "É", "ñ", "ß", "e\u0301", "\u212a", "\u017f", "😀"},
	{"\xff", "\xc3", "\xe1\xba"},
}

// classifyPiece draws a kind of piece, then a piece of that kind.
var classifyPiece = rapid.Custom(func(t *rapid.T) string {
	kind := rapid.SampledFrom(classifyPieces).Draw(t, "kind")
	return rapid.SampledFrom(kind).Draw(t, "piece")
})

// classifyText draws, mostly, a text of a few pieces; else any string, or
// a valid UTF-8 string of random runes.
var classifyText = rapid.OneOf(
	rapid.Custom(func(t *rapid.T) string {
		return strings.Join(rapid.SliceOfN(classifyPiece, 0, 8).Draw(t, "pieces"), "")
	}),
	rapid.Custom(func(t *rapid.T) string {
		return strings.Join(rapid.SliceOfN(classifyPiece, 0, 4).Draw(t, "pieces"), "")
	}),
	rapid.String(),
	rapid.StringOf(rapid.Rune()),
)

// classifyTexts draws a batch of texts: each check compares many cheap
// texts, so a marker that only a rare piece combination shows is still met
// within the default number of checks.
var classifyTexts = rapid.SliceOfN(classifyText, 1, 16)

// propMatches is the property that scan answers as ref on every text.
func propMatches(scan func(string) bool, ref *regexp.Regexp) func(*rapid.T) {
	return func(t *rapid.T) {
		for _, s := range classifyTexts.Draw(t, "texts") {
			if got, want := scan(s), ref.MatchString(s); got != want {
				t.Fatalf("scan(%q) = %v, the pattern says %v", s, got, want)
			}
		}
	}
}

// refClassify is ClassifyText written with the reference patterns.
func refClassify(s string) string {
	t := strings.TrimFunc(s, func(r rune) bool {
		return strings.ContainsRune("\t\n\v\f\r \u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff", r) || r >= 0x2000 && r <= 0x200a
	})
	switch {
	case (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) && json.Valid([]byte(t)):
		return prompt.KindJSON
	case refCodeMarkers.MatchString(s):
		return prompt.KindCode
	case refVietnameseMarks.MatchString(s):
		return prompt.KindVietnamese
	}
	return prompt.KindEnglish
}

func TestPropertyCodeMarkerScan(t *testing.T) {
	rapid.Check(t, propMatches(prompt.HasCodeMarker, refCodeMarkers))
}

func TestPropertyVietnameseMarkScan(t *testing.T) {
	rapid.Check(t, propMatches(prompt.HasVietnameseMark, refVietnameseMarks))
}

func TestPropertyClassifyText(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		for _, s := range classifyTexts.Draw(t, "texts") {
			if got, want := prompt.ClassifyText(s), refClassify(s); got != want {
				t.Fatalf("ClassifyText(%q) = %q, the patterns say %q", s, got, want)
			}
		}
	})
}

var _ = Describe("the content-class scan properties catch broken variants", func() {
	expectFails := func(name string, scan func(string) bool, ref *regexp.Regexp) {
		failed, log := rapidtest.Check(name, 3*time.Second, propMatches(scan, ref))
		ExpectWithOffset(1, failed).To(BeTrue(), "the property did not catch the broken variant %q:\n%s", name, log)
	}

	It("a keyword found inside a longer word", func() {
		expectFails("substring-keyword", func(s string) bool {
			for _, k := range []string{"const", "let", "var", "function", "class", "interface", "return", "import", "export", "def", "fn", "impl"} {
				if strings.Contains(s, k) {
					return true
				}
			}
			return strings.Contains(s, "=>") || strings.ContainsAny(s, "{};")
		}, refCodeMarkers)
	})

	It("non-ASCII letters counted as word characters", func() {
		expectFails("unicode-word", func(s string) bool {
			if strings.Contains(s, "=>") || strings.ContainsAny(s, "{};") {
				return true
			}
			for _, w := range strings.FieldsFunc(s, func(r rune) bool {
				return !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= 0x80)
			}) {
				switch w {
				case "const", "let", "var", "function", "class", "interface", "return", "import", "export", "def", "fn", "impl":
					return true
				}
			}
			return false
		}, refCodeMarkers)
	})

	It("the arrow left out", func() {
		expectFails("no-arrow", func(s string) bool {
			return refCodeMarkers.MatchString(strings.ReplaceAll(s, "=>", "= "))
		}, refCodeMarkers)
	})

	It("Vietnamese letters matched in lower case only", func() {
		lower := regexp.MustCompile(`[àáạảãâầấậẩẫăằắặẳẵèéẹẻẽêềếệểễìíịỉĩòóọỏõôồốộổỗơờớợởỡùúụủũưừứựửữỳýỵỷỹđ]`)
		expectFails("lower-case-only", lower.MatchString, refVietnameseMarks)
	})
})
