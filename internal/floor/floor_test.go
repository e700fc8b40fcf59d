package floor

import (
	"os"
	"runtime"
	"testing"
	"time"
)

func TestMedianIgnoresOneOutlier(t *testing.T) {
	s := Samples{3 * time.Millisecond, time.Second, 2 * time.Millisecond, 4 * time.Millisecond, time.Millisecond}
	if got := s.Median(); got != 3*time.Millisecond {
		t.Errorf("median of %v = %v, want 3ms", s, got)
	}
	if got := Median([]float64{5, 1, 100}); got != 5 {
		t.Errorf("Median = %v, want 5", got)
	}
	if Samples(nil).Median() != 0 || Median(nil) != 0 || Ratio(time.Second, 0) != 0 {
		t.Error("an empty sample or a zero floor must give 0, not a division by zero")
	}
	if got := Ratio(3*time.Second, time.Second); got != 3 {
		t.Errorf("Ratio = %v, want 3", got)
	}
}

func TestPeakHeapGrowthSeesAnAllocationItDoesNotKeep(t *testing.T) {
	const n = 64 << 20
	var sink []byte
	peak, allocated := PeakHeapGrowth(func() {
		sink = make([]byte, n)
		sink[n-1] = 1
		time.Sleep(5 * time.Millisecond)
	})
	if peak < n || allocated < n {
		t.Errorf("peak %d, allocated %d after allocating %d bytes", peak, allocated, n)
	}
	runtime.KeepAlive(sink)
}

func TestPeakRSSOfThisProcess(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	rss, err := PeakRSS(os.Getpid())
	if err != nil || rss < 1<<20 {
		t.Errorf("PeakRSS = %d, %v; want at least 1 MiB", rss, err)
	}
	if _, err := PeakRSS(-1); err == nil {
		t.Error("PeakRSS of no process returned no error")
	}
}
