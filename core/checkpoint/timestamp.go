package checkpoint

import (
	"fmt"
	"regexp"
	"strconv"
	"sync"
	"time"
)

// maxTimestampMs is the largest distance from the epoch that a JavaScript
// Date can hold (±8.64e15 ms).
const maxTimestampMs = 8_640_000_000_000_000

// timestampShape matches the JavaScript Date.prototype.toISOString forms:
// a four-digit year, or a signed six-digit one outside 0000–9999.
var timestampShape = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([0-9]{4}|[+-][0-9]{6})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})\.([0-9]{3})Z$`)
})

// FormatTimestamp formats Unix milliseconds as JavaScript's toISOString
// does: "YYYY-MM-DDTHH:mm:ss.sssZ", with "+YYYYYY"/"-YYYYYY" years outside
// 0000–9999. ms must lie within ±8.64e15 (the JavaScript Date range).
func FormatTimestamp(ms int64) string {
	t := time.UnixMilli(ms).UTC()
	var year string
	switch y := t.Year(); {
	case y >= 0 && y <= 9999:
		year = fmt.Sprintf("%04d", y)
	case y < 0:
		year = fmt.Sprintf("-%06d", -y)
	default:
		year = fmt.Sprintf("+%06d", y)
	}
	return fmt.Sprintf("%s-%02d-%02dT%02d:%02d:%02d.%03dZ", year, t.Month(), t.Day(),
		t.Hour(), t.Minute(), t.Second(), t.Nanosecond()/1_000_000)
}

// IsCanonicalTimestamp reports whether s equals its own round trip through
// JavaScript's Date parser and toISOString (CONTRACTS §11.2 createdAt):
// "2026-01-02T03:04:05.006Z" is canonical; a missing millisecond part,
// an offset, "24:00", 31 February or "+002026" are not.
func IsCanonicalTimestamp(s string) bool {
	m := timestampShape().FindStringSubmatch(s)
	if m == nil || m[1] == "-000000" {
		return false
	}
	n := make([]int, 7)
	for i := range n {
		v, err := strconv.Atoi(m[i+1])
		if err != nil {
			return false
		}
		n[i] = v
	}
	t := time.Date(n[0], time.Month(n[1]), n[2], n[3], n[4], n[5], n[6]*1_000_000, time.UTC)
	ms := t.UnixMilli()
	if ms > maxTimestampMs || ms < -maxTimestampMs {
		return false
	}
	return FormatTimestamp(ms) == s
}
