package run

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/galaxy-stack/conform/core/checkpoint"
)

// TestPropertyStampCacheFormatsEveryReading: over clock readings that
// repeat, step forward, jump back and cross year boundaries, the cache
// answers what formatting each reading afresh gives.
func TestPropertyStampCacheFormatsEveryReading(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var c stampCache
		ms := rapid.Int64Range(-8_640_000_000_000_000, 8_640_000_000_000_000).Draw(t, "start")
		for i := range rapid.IntRange(1, 20).Draw(t, "readings") {
			switch rapid.IntRange(0, 3).Draw(t, "step") {
			case 1:
				ms += rapid.Int64Range(1, 1000).Draw(t, "forward")
			case 2:
				ms -= rapid.Int64Range(1, 1000).Draw(t, "back")
			case 3:
				ms = rapid.SampledFrom([]int64{0, -1, 253402300799999, 253402300800000, 1_700_000_000_000}).Draw(t, "edge")
			}
			if got, want := c.format(ms), checkpoint.FormatTimestamp(ms); got != want {
				t.Fatalf("reading %d (%d ms): %s, want %s", i, ms, got, want)
			}
		}
	})
}
