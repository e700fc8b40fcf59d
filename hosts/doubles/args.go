package doubles

import (
	"math"
	"regexp"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// stringArg returns the string argument name, or INVALID_INPUT "Missing
// string argument '<name>'." when it is absent or not a string.
func stringArg(args map[string]any, name string) (string, *outcome) {
	if s, ok := args[name].(string); ok {
		return s, nil
	}
	o := invalid("Missing string argument '" + name + "'.")
	return "", &o
}

// stringOr returns the string argument name, or fallback when it is absent
// or not a string.
func stringOr(args map[string]any, name, fallback string) string {
	if s, ok := args[name].(string); ok {
		return s
	}
	return fallback
}

// numberOr returns the numeric argument name, or fallback when it is absent
// or not a number. Decoded JSON numbers are float64.
func numberOr(args map[string]any, name string, fallback float64) float64 {
	switch v := args[name].(type) {
	case float64:
		return v
	case int:
		return float64(v)
	}
	return fallback
}

// boolOr returns the boolean argument name, or fallback.
func boolOr(args map[string]any, name string, fallback bool) bool {
	if b, ok := args[name].(bool); ok {
		return b
	}
	return fallback
}

// count turns a numeric argument into a non-negative length: fractions are
// truncated, negative values and NaN become 0.
func count(f float64) int {
	if math.IsNaN(f) || f <= 0 {
		return 0
	}
	if f > math.MaxInt32 {
		return math.MaxInt32
	}
	return int(f)
}

// jsNumber formats f as JavaScript's String(number) does for the values a
// tool argument can hold.
func jsNumber(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

var cursorPatterns = map[string]*regexp.Regexp{
	"offset:": regexp.MustCompile(`^offset:([0-9]+)$`),
	"byte:":   regexp.MustCompile(`^byte:([0-9]+)$`),
}

// maxSafeInteger is JavaScript's Number.MAX_SAFE_INTEGER.
const maxSafeInteger = 1<<53 - 1

// cursor parses the optional cursor argument name of the form
// "<prefix><decimal>" as an offset in 0..maximum; absent means 0.
func cursor(args map[string]any, name, prefix string, maximum int) (int, *outcome) {
	v, present := args[name]
	if !present {
		return 0, nil
	}
	s, ok := v.(string)
	if !ok {
		o := invalid("Cursor must use '" + prefix + "<offset>'.")
		return 0, &o
	}
	m := cursorPatterns[prefix].FindStringSubmatch(s)
	if m != nil {
		if n, err := strconv.ParseInt(m[1], 10, 64); err == nil && n <= maxSafeInteger && n <= int64(maximum) {
			return int(n), nil
		}
	}
	o := invalid("Cursor must use '" + prefix + "<offset>' within the resource.")
	return 0, &o
}

// page is one bounded piece of a text.
type page struct {
	content   string
	end       int
	truncated bool
}

// bytePage takes the UTF-8 bytes [start, start+maxBytes) of text, shortened
// to end on a character boundary. A start inside a character is
// INVALID_INPUT (DECISIONS 61).
func bytePage(text string, start, maxBytes int) (page, *outcome) {
	b := []byte(text)
	if start < len(b) && !utf8.RuneStart(b[start]) {
		o := invalid("Cursor does not point to a UTF-8 boundary.")
		return page{}, &o
	}
	end := min(len(b), start+maxBytes)
	for end > start && end < len(b) && !utf8.RuneStart(b[end]) {
		end--
	}
	return page{content: string(b[start:end]), end: end, truncated: end < len(b)}, nil
}

// utf16Slice returns the UTF-16 code units [start, end) of s, as
// JavaScript's String.prototype.slice does; a surrogate pair cut in half
// becomes U+FFFD.
func utf16Slice(s string, start, end int) string {
	u := utf16.Encode([]rune(s))
	start, end = min(max(start, 0), len(u)), min(max(end, 0), len(u))
	if start >= end {
		return ""
	}
	return string(utf16.Decode(u[start:end]))
}
