// Package failure renders a failed spec's message as a report's reason:
// a sentence about the host, never Gomega's layout of types and values.
package failure

import (
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Reason renders the message of a failed spec. A Gomega assertion's
// message is its description (which the item checks give) followed by the
// matcher's "Expected\n    <type>: actual\nto equal\n    <type>: expected";
// it becomes "description: expected X, got Y" (or "expected A to contain
// substring B" for matchers that are not equalities). Anything else, such
// as a scenario's list of oracle failures, is kept as it is.
func Reason(msg string) string {
	msg = strings.TrimSpace(msg)
	lines := strings.Split(msg, "\n")
	k := matcherStart(lines)
	if k < 0 {
		return msg
	}
	s := matcherSentence(lines[k:])
	desc := strings.TrimRight(strings.TrimSpace(strings.Join(lines[:k], "\n")), " .:;")
	if desc == "" {
		return s
	}
	return desc + ": " + s
}

// Heads of Gomega's failure messages.
const (
	headExpected   = "Expected"
	headSuccess    = "Expected success, but got an error:"
	headUnexpected = "Unexpected error:"
	headNoError    = "Expected an error to have occurred.  Got:"
)

// gomegaIndent is the indentation of a value in Gomega's messages
// (format.Indent).
const gomegaIndent = "    "

// matcherStart returns the index of the line where the matcher's message
// begins, or -1: a known head followed by an indented "<type>: " value.
func matcherStart(lines []string) int {
	for k := 0; k+1 < len(lines); k++ {
		switch lines[k] {
		case headExpected, headSuccess, headUnexpected, headNoError:
			if gomegaValue.MatchString(strings.TrimPrefix(lines[k+1], gomegaIndent)) && strings.HasPrefix(lines[k+1], gomegaIndent) {
				return k
			}
		}
	}
	return -1
}

// gomegaValue matches the first line of a value: "<type>: rest", the type with
// an optional " | 0xADDR" or " | len:N, cap:M".
var gomegaValue = regexp.MustCompile(`^<([^>|]*)(?: \|[^>]*)?>: ?(.*)$`)

// matcherSentence renders a matcher's message, lines from its head on.
func matcherSentence(lines []string) string {
	head, rest := lines[0], lines[1:]
	actual, rest := valueBlock(rest)
	switch head {
	case headSuccess:
		return "expected success, got the error " + actual
	case headUnexpected:
		return "unexpected error: " + actual
	case headNoError:
		return "expected an error, got " + actual
	}
	if len(rest) == 0 {
		return "expected " + actual
	}
	relation := strings.TrimSpace(strings.TrimRight(rest[0], " |"))
	expected, tail := valueBlock(rest[1:])
	var s string
	switch {
	case expected != "" && (relation == "to equal" || relation == "to be equivalent to" || relation == "to be identical to"):
		s = "expected " + expected + ", got " + actual
	case relation == "to be true" || relation == "to be false" || relation == "to be nil":
		s = "expected " + strings.TrimPrefix(relation, "to be ") + ", got " + actual
	case relation == "not to be nil":
		s = "expected a value, got nil"
	case relation == "to be empty":
		s = "expected nothing, got " + actual
	case expected != "":
		s = "expected " + actual + " " + relation + " " + expected
	default:
		s = "expected " + actual + " " + relation
	}
	if t := strings.TrimSpace(strings.Join(tail, " ")); t != "" {
		s += " (" + t + ")"
	}
	return s
}

// maxValue bounds a value in a rendered reason, in runes.
const maxValue = 300

// valueBlock reads one indented value from the start of lines and returns
// it rendered, and the lines after it. A string is quoted, an error is its
// message, a duration its String, anything else its lines joined.
func valueBlock(lines []string) (string, []string) {
	n := 0
	for n < len(lines) && strings.HasPrefix(lines[n], gomegaIndent) {
		n++
	}
	if n == 0 {
		return "", lines
	}
	block := make([]string, n)
	for i, l := range lines[:n] {
		block[i] = strings.TrimPrefix(l, gomegaIndent)
	}
	m := gomegaValue.FindStringSubmatch(block[0])
	if m == nil {
		return clip(strings.Join(trimAll(block), " ")), lines[n:]
	}
	typ, first, more := m[1], m[2], block[1:]
	var v string
	switch {
	case typ == "nil":
		v = "nil"
	case first == "" && len(more) > 0 && typ != "string":
		// An error: its message on the lines after the type, then the
		// value's dump, which is left out.
		v = clip(strings.Join(trimAll(errorLines(more)), " "))
	case typ == "string":
		// Gomega escapes a string compared with Equal and prints others
		// raw; a newline is shown escaped either way.
		s := strings.Join(append([]string{first}, more...), "\n")
		v = `"` + clip(strings.ReplaceAll(s, "\n", `\n`)) + `"`
	case typ == "time.Duration" && len(more) == 0:
		if ns, err := strconv.ParseInt(first, 10, 64); err == nil {
			v = time.Duration(ns).String()
			break
		}
		v = first
	default:
		v = clip(strings.Join(trimAll(append([]string{first}, more...)), " "))
	}
	return v, lines[n:]
}

// errorLines returns the message lines of an error value: the lines before
// its dump, which starts on the first line that opens a Go value.
func errorLines(lines []string) []string {
	for j := 1; j < len(lines); j++ {
		if t := lines[j]; t == "" || strings.ContainsAny(t[:1], "{<\"&[") {
			return lines[:j]
		}
	}
	if len(lines) > 1 {
		return lines[:len(lines)-1]
	}
	return lines
}

func trimAll(lines []string) []string {
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		if t := strings.TrimSpace(l); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// clip cuts s to maxValue runes.
func clip(s string) string {
	if utf8.RuneCountInString(s) <= maxValue {
		return s
	}
	r := []rune(s)
	return string(r[:maxValue]) + "…"
}
