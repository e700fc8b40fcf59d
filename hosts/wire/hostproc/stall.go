package hostproc

import (
	"sync"
	"time"
)

// The harness's own stalls: spans during which this process did not run
// (the machine or virtual machine was paused or starved it) while its clock
// ran on. A call's bound expires at the end of such a span whatever the
// host did in it, so a diagnosis of a silence says how much of the wait
// the harness itself missed.

// stallTick is how often the stall watch wakes; a wake-up later than
// stallLate past its time is recorded as a stall.
const (
	stallTick = 200 * time.Millisecond
	stallLate = time.Second
)

// stallKeep is how many stalls are remembered; older ones are forgotten.
const stallKeep = 64

// A stall is a span during which the harness did not run.
type stall struct{ from, to time.Time }

var stalls struct {
	once sync.Once
	mu   sync.Mutex
	ring [stallKeep]stall
	next int
}

// watchStalls starts the process's stall watch, once.
func watchStalls() {
	stalls.once.Do(func() {
		go func() {
			last := time.Now()
			for {
				time.Sleep(stallTick)
				now := time.Now()
				if now.Sub(last)-stallTick >= stallLate {
					recordStall(last.Add(stallTick), now)
				}
				last = now
			}
		}()
	})
}

func recordStall(from, to time.Time) {
	stalls.mu.Lock()
	defer stalls.mu.Unlock()
	stalls.ring[stalls.next] = stall{from, to}
	stalls.next = (stalls.next + 1) % stallKeep
}

// stalledBetween returns how much of the span from a to b the harness did
// not run, as far as the remembered stalls say.
func stalledBetween(a, b time.Time) time.Duration {
	stalls.mu.Lock()
	defer stalls.mu.Unlock()
	var sum time.Duration
	for _, s := range stalls.ring {
		from, to := s.from, s.to
		if from.Before(a) {
			from = a
		}
		if to.After(b) {
			to = b
		}
		if to.After(from) {
			sum += to.Sub(from)
		}
	}
	return sum
}
