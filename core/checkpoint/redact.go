package checkpoint

import (
	"regexp"
	"strings"
	"sync"
)

// jsSpace is JavaScript's \s as a character-class body: the ECMAScript
// WhiteSpace and LineTerminator code points. RE2's \s is ASCII only.
const jsSpace = `\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`

// The three redaction rules of CONTRACTS §11.3. Case-insensitive words are
// spelled with ASCII classes: JavaScript's non-Unicode /i never folds a
// non-ASCII letter onto an ASCII one, while RE2's (?i) folds 'ſ' onto 's'
// and the Kelvin sign onto 'k'.
var (
	bearerRule = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(asciiFold("bearer") + `[` + jsSpace + `]+[A-Za-z0-9._~+/=-]+`)
	})
	keyRule   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b(?:sk|key)-[A-Za-z0-9_-]{12,}\b`) })
	labelRule = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`((?:` + asciiFold("api") + `[_-]?` + asciiFold("key") + `|` +
			asciiFold("password") + `|` + asciiFold("secret") + `|` + asciiFold("token") + `)[` + jsSpace + `]*[:=][` + jsSpace + `]*)[^` + jsSpace + `,;]+`)
	})
)

// asciiFold spells word case-insensitively with ASCII classes.
func asciiFold(word string) string {
	var b strings.Builder
	for _, c := range word {
		b.WriteString("[" + strings.ToUpper(string(c)) + strings.ToLower(string(c)) + "]")
	}
	return b.String()
}

// Redact removes credentials from free text as the original runtime does
// (CONTRACTS §11.3), in this order: "Bearer <token>" becomes
// "Bearer [REDACTED]"; a word-bounded "sk-" or "key-" with at least 12
// token characters becomes "[REDACTED]"; the value after an api_key,
// api-key, apikey, password, secret or token label and ":" or "=" becomes
// "[REDACTED]" (the label is kept).
//
// Each rule runs only when the text contains the literal it needs (ASCII
// case-insensitively): "bearer"; "sk-" or "key-"; "api", "password",
// "secret" or "token". Text with none of them is returned as it is
// without running the regular expressions.
func Redact(s string) string {
	if containsFold(s, "bearer") {
		s = bearerRule().ReplaceAllLiteralString(s, "Bearer [REDACTED]")
	}
	if strings.Contains(s, "sk-") || strings.Contains(s, "key-") {
		s = keyRule().ReplaceAllLiteralString(s, "[REDACTED]")
	}
	if containsFold(s, "api") || containsFold(s, "password") || containsFold(s, "secret") || containsFold(s, "token") {
		s = labelRule().ReplaceAllString(s, "${1}[REDACTED]")
	}
	return s
}

// containsFold reports whether s contains word with ASCII letters matched
// case-insensitively; word is lower-case ASCII.
func containsFold(s, word string) bool {
	for i := 0; i+len(word) <= len(s); i++ {
		j := 0
		for j < len(word) && s[i+j]|0x20 == word[j] {
			j++
		}
		if j == len(word) {
			return true
		}
	}
	return false
}
