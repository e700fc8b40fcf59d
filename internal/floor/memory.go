package floor

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// PeakHeapGrowth runs f and returns how far the heap in use (HeapAlloc)
// rose above its level before f, at the highest of samples taken every
// millisecond while f ran, and the bytes f's process allocated in all
// (TotalAlloc). It collects garbage first so that the baseline is live
// data only.
func PeakHeapGrowth(f func()) (peak, allocated uint64) {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	base, total := m.HeapAlloc, m.TotalAlloc
	var high atomic.Uint64
	high.Store(base)
	stop, sampled := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(sampled)
		var s runtime.MemStats
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&s)
			if s.HeapAlloc > high.Load() {
				high.Store(s.HeapAlloc)
			}
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	f()
	close(stop)
	<-sampled
	runtime.ReadMemStats(&m)
	if m.HeapAlloc > high.Load() {
		high.Store(m.HeapAlloc)
	}
	return high.Load() - base, m.TotalAlloc - total
}

// PeakRSS returns the peak resident set size (VmHWM) of process pid, in
// bytes, from /proc; it fails where there is no /proc (only Linux has it).
func PeakRSS(pid int) (uint64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:")
		if !ok {
			continue
		}
		kb, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc/%d/status: VmHWM %q: %w", pid, rest, err)
		}
		return kb << 10, nil
	}
	return 0, fmt.Errorf("/proc/%d/status has no VmHWM line", pid)
}
