package oracle

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/galaxy-stack/conform/core/canon"
)

// A Failure is one failed assertion of the oracle.
type Failure struct {
	// File names the fixture's file (fixture.Fixture.File).
	File string `json:"file,omitempty"`
	// Assertion is the JSON path of the assertion in the fixture, such as
	// "expected.toolSequence" or "expected.files[0].content", or the name
	// of a check that always runs: "controls", "checkpointIntegrity",
	// "writeEvidence".
	Assertion string `json:"assertion"`
	// Expected and Actual say what was expected and what was observed, in
	// a short deterministic form.
	Expected string `json:"expected"`
	Actual   string `json:"actual"`
	// Message is the original lab's failure message (LAB §4), as reports
	// list it.
	Message string `json:"message"`
}

// String renders f as "file: assertion: expected E, got A", leaving out
// the file when it is empty.
func (f Failure) String() string {
	var b strings.Builder
	if f.File != "" {
		b.WriteString(f.File)
		b.WriteString(": ")
	}
	b.WriteString(f.Assertion)
	b.WriteString(": expected ")
	b.WriteString(f.Expected)
	b.WriteString(", got ")
	b.WriteString(f.Actual)
	return b.String()
}

// Detail renders f for a reader who must act on it, the assertion left
// out: the message with the expected and the actual value. A message that
// already names both is returned as it is; one that names neither (such
// as "Tool result 3 ok mismatch.") gains them: "Tool result 3 ok
// mismatch: expected false, got true.".
func (f Failure) Detail() string {
	msg := strings.TrimSpace(f.Message)
	if msg == "" {
		return "expected " + f.Expected + ", got " + f.Actual
	}
	if f.Expected == "" && f.Actual == "" || namesValues(msg, f) {
		return msg
	}
	return strings.TrimSuffix(msg, ".") + ": expected " + f.Expected + ", got " + strings.TrimSuffix(f.Actual, ".") + "."
}

// namesValues reports whether msg already shows f's values: verbatim, or
// in the original lab's "Expected X, received Y." form, whose values are
// the JSON spelling of f's.
func namesValues(msg string, f Failure) bool {
	if strings.Contains(msg, f.Expected) && strings.Contains(msg, f.Actual) {
		return true
	}
	return strings.HasPrefix(msg, "Expected ") && strings.Contains(msg, ", received ")
}

// Messages returns the Message of each failure, in order: the report's
// failures list (LAB §5).
func Messages(fs []Failure) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Message
	}
	return out
}

// maxText is the most runes of a free text a Failure shows.
const maxText = 200

// text quotes s for a Failure, cut to maxText runes with the number of
// runes left out.
func text(s string) string {
	runes := []rune(s)
	if len(runes) > maxText {
		return strconv.Quote(string(runes[:maxText])) + "…(" + strconv.Itoa(len(runes)-maxText) + " more characters)"
	}
	return strconv.Quote(s)
}

// differingText quotes want and got for a Failure. Texts that both fit
// in maxText runes are quoted whole (text); longer ones are shown from a
// little before the first rune where they differ, cut to maxText runes,
// with the offset, so that the reason shows what differs even when it is
// far into a large file.
func differingText(want, got string) (string, string) {
	w, g := []rune(want), []rune(got)
	if len(w) <= maxText && len(g) <= maxText {
		return text(want), text(got)
	}
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	from := max(0, i-maxText/4)
	if from == 0 {
		return text(want), text(got)
	}
	at := func(r []rune) string {
		return "from character " + strconv.Itoa(from) + " of " + strconv.Itoa(len(r)) + ": …" + text(string(r[min(from, len(r)):]))
	}
	return at(w), at(g)
}

// list renders strings as "[a b]"; an element that would be ambiguous in
// that form (empty, or holding spaces, brackets or quotes) is quoted.
func list(xs []string) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		if x == "" || strings.ContainsAny(x, " \t\r\n[]\"") || !utf8.ValidString(x) {
			parts[i] = strconv.Quote(x)
		} else {
			parts[i] = x
		}
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// ints renders integers as "[a b]".
func ints(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// nullable renders an optional code as the original's String(value) does:
// the code, or "null".
func nullable(s *string) string {
	if s == nil {
		return "null"
	}
	return *s
}

// js renders the list v as JavaScript's JSON.stringify does for the lists
// the original's messages hold: compact, without HTML escaping, and "[]"
// for nil.
func js[T any](v []T) string {
	if v == nil {
		v = []T{}
	}
	b, err := canon.Stringify(v)
	if err != nil {
		return "null"
	}
	return string(b)
}

// jsStr renders s as JavaScript's JSON.stringify does.
func jsStr(s string) string {
	l := js([]string{s})
	return l[1 : len(l)-1]
}
