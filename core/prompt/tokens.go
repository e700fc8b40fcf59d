package prompt

import (
	"encoding/json"
	"math"
	"regexp"
	"strings"

	"github.com/galaxy-stack/conform/core/canon"
)

// Token content kinds (CONTRACTS §12.2).
const (
	KindCode       = "code"
	KindEnglish    = "english"
	KindJSON       = "json"
	KindVietnamese = "vietnamese"
)

var (
	codeMarkers     = regexp.MustCompile(`=>|\b(?:const|let|var|function|class|interface|return|import|export|def|fn|impl)\b|[{};]`)
	vietnameseMarks = regexp.MustCompile(`(?i)[àáạảãâầấậẩẫăằắặẳẵèéẹẻẽêềếệểễìíịỉĩòóọỏõôồốộổỗơờớợởỡùúụủũưừứựửữỳýỵỷỹđ]`)
)

// ClassifyText returns the content kind of s (CONTRACTS §12.2): "json" when
// the trimmed text starts with '{' or '[' and parses as JSON, else "code"
// when it has "=>", a code keyword as a whole word, or one of '{', '}',
// ';', else "vietnamese" when it has a Vietnamese letter with a diacritic,
// else "english".
func ClassifyText(s string) string {
	t := strings.TrimFunc(s, isJSSpace)
	if (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) && json.Valid([]byte(t)) {
		return KindJSON
	}
	if codeMarkers.MatchString(s) {
		return KindCode
	}
	if vietnameseMarks.MatchString(s) {
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

// isJSSpace reports whether r is removed by JavaScript's String.prototype.trim.
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0x00A0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}
