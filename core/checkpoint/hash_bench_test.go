package checkpoint

import (
	"crypto/sha256"
	"testing"
	"time"

	"github.com/galaxy-stack/conform/internal/floor"
)

// BenchmarkContentHash measures a checkpoint's content hash (the canonical
// JSON of {createdAt, payload, reason} and its SHA-256, CONTRACTS §11.5)
// against SHA-256 alone over the same canonical bytes, alternating the two
// in one loop:
//
//   - jcs-sha-ns and sha-ns: the medians of each;
//   - jcs-sha/sha: their ratio, whose goal is at most 3;
//   - canonical-bytes: the size hashed.
func BenchmarkContentHash(b *testing.B) {
	o := defaults()
	p := o.sanitize(fullPayload())
	const at = "2026-01-02T03:04:05.000Z"
	data, err := o.marshal(o.envelope(at, &p, ReasonMilestone))
	if err != nil {
		b.Fatal(err)
	}
	var hashS, shaS floor.Samples
	for b.Loop() {
		start := time.Now()
		if _, err := o.hash(at, &p, ReasonMilestone); err != nil {
			b.Fatal(err)
		}
		hashS = append(hashS, time.Since(start))
		start = time.Now()
		_ = sha256.Sum256(data)
		shaS = append(shaS, time.Since(start))
	}
	h, s := hashS.Median(), shaS.Median()
	b.ReportMetric(float64(h.Nanoseconds()), "jcs-sha-ns")
	b.ReportMetric(float64(s.Nanoseconds()), "sha-ns")
	b.ReportMetric(floor.Ratio(h, s), "jcs-sha/sha")
	b.ReportMetric(float64(len(data)), "canonical-bytes")
}
