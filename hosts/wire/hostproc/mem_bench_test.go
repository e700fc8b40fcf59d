package hostproc_test

import (
	"context"
	"testing"

	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/internal/floor"
)

// BenchmarkMessageMemory receives one protocol-legal 32 MiB store/get
// answer per iteration, from the line on the pipe to the caller's decoded
// document, and reports the memory that costs against the message's size:
//
//   - peak-heap/msg: how far the heap in use rose at its peak, over the
//     message's size (goal: at most 3, about two copies and slack);
//   - alloc/msg: the bytes allocated in all, over the message's size.
//
// Both are the medians of the loop's samples.
func BenchmarkMessageMemory(b *testing.B) {
	const size = 32 << 20
	result := storeGetResult(size)
	c := bigClient(b, result)
	var peaks, allocs []float64
	for b.Loop() {
		var doc []byte
		var err error
		peak, alloc := floor.PeakHeapGrowth(func() {
			doc, err = c.StoreGet(context.Background(), wire.StoreGetParams{RunID: "r", Kind: wire.KindCheckpoint})
		})
		if err != nil || len(doc) < size {
			b.Fatalf("store/get: %d bytes, %v", len(doc), err)
		}
		peaks = append(peaks, float64(peak)/float64(len(result)))
		allocs = append(allocs, float64(alloc)/float64(len(result)))
	}
	b.ReportMetric(floor.Median(peaks), "peak-heap/msg")
	b.ReportMetric(floor.Median(allocs), "alloc/msg")
}
