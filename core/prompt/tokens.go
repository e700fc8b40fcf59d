package prompt

import (
	"encoding/json"
	"math"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/galaxy-stack/conform/core/canon"
)

// Token content kinds (CONTRACTS §12.2).
const (
	KindCode       = "code"
	KindEnglish    = "english"
	KindJSON       = "json"
	KindVietnamese = "vietnamese"
)

// vietnameseMarks matches a Vietnamese letter with a diacritic, in either
// case. Every such letter, and every letter it folds to, is outside ASCII.
var vietnameseMarks = regexp.MustCompile(`(?i)[àáạảãâầấậẩẫăằắặẳẵèéẹẻẽêềếệểễìíịỉĩòóọỏõôồốộổỗơờớợởỡùúụủũưừứựửữỳýỵỷỹđ]`)

// ClassifyText returns the content kind of s (CONTRACTS §12.2): "json" when
// the trimmed text starts with '{' or '[' and parses as JSON, else "code"
// when it has "=>", a code keyword as a whole word, or one of '{', '}',
// ';', else "vietnamese" when it has a Vietnamese letter with a diacritic,
// else "english".
func ClassifyText(s string) string {
	t := canon.TrimJSSpace(s)
	if (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) && json.Valid([]byte(t)) {
		return KindJSON
	}
	if hasCodeMarker(s) {
		return KindCode
	}
	if hasVietnameseMark(s) {
		return KindVietnamese
	}
	return KindEnglish
}

// EstimateTokens is the uncalibrated token estimate the prompt assembler
// uses (CONTRACTS §12.2): 0 for "", else ceil(UTF-16 length / characters
// per token × 1.15), with 3 characters per token for code, 2.5 for
// Vietnamese, 2.8 for JSON and 4 for English.
func EstimateTokens(s string) int {
	if s == "" {
		return 0
	}
	cpt := 4.0
	switch ClassifyText(s) {
	case KindCode:
		cpt = 3
	case KindVietnamese:
		cpt = 2.5
	case KindJSON:
		cpt = 2.8
	}
	return int(math.Ceil(float64(canon.UTF16Len(s)) / cpt * 1.15))
}

// hasCodeMarker reports whether s has "=>", one of '{', '}', ';', or a
// code keyword as a whole word (CONTRACTS §12.2), where a word is a
// maximal run of ASCII letters, digits and '_'. It scans s once and
// answers as the pattern
// =>|\b(?:const|let|var|function|class|interface|return|import|export|def|fn|impl)\b|[{};]
// does: \b is an ASCII word boundary, so every byte of a non-ASCII or
// invalid UTF-8 sequence is a non-word byte.
func hasCodeMarker(s string) bool {
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == '{' || c == '}' || c == ';':
			return true
		case c == '=' && i+1 < len(s) && s[i+1] == '>':
			return true
		case isWordByte(c):
			j := i + 1
			for j < len(s) && isWordByte(s[j]) {
				j++
			}
			if isCodeKeyword(s[i:j]) {
				return true
			}
			i = j
			continue
		}
		i++
	}
	return false
}

// isWordByte reports whether c is an ASCII word character [0-9A-Za-z_].
func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// isCodeKeyword reports whether w is one of the code keywords of
// [ClassifyText] (case-sensitive).
func isCodeKeyword(w string) bool {
	switch w {
	case "const", "let", "var", "function", "class", "interface", "return", "import", "export", "def", "fn", "impl":
		return true
	}
	return false
}

// hasVietnameseMark reports whether s has a Vietnamese letter with a
// diacritic; text that is all ASCII has none, so it skips the pattern.
func hasVietnameseMark(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return vietnameseMarks.MatchString(s[i:])
		}
	}
	return false
}
