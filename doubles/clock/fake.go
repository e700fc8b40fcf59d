package clock

import (
	"context"
	"sync"
	"time"

	"github.com/galaxy-stack/conform/core/port"
)

// Fake is a settable, advanceable clock that stands in for wall time. Now
// returns the current virtual time in Unix milliseconds; it moves only
// through Set, Advance, Sleep and an optional per-read step. It is safe for
// concurrent use.
type Fake struct {
	mu     sync.Mutex
	now    int64
	step   int64
	sleeps []time.Duration
}

var (
	_ port.Clock   = (*Fake)(nil)
	_ port.Sleeper = (*Fake)(nil)
)

// NewFake returns a fake clock reading startMs (Unix milliseconds).
func NewFake(startMs int64) *Fake {
	return &Fake{now: startMs}
}

// Now returns the virtual time in Unix milliseconds, then advances the clock
// by the step set with SetStep (none by default).
func (f *Fake) Now() int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	now := f.now
	f.now += f.step
	return now
}

// Timestamp returns the virtual time as an ISO-8601 UTC timestamp with
// millisecond precision ("1970-01-01T00:00:00.000Z"), the form of the
// original runtime clock's timestamp(). It does not step the clock.
func (f *Fake) Timestamp() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return FormatTimestamp(f.now)
}

// Set moves the clock to ms (Unix milliseconds), backwards if need be.
func (f *Fake) Set(ms int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = ms
}

// Advance moves the clock forward by d, truncated to whole milliseconds.
// Advance panics if d is negative: time only goes back through Set.
func (f *Fake) Advance(d time.Duration) {
	if d < 0 {
		panic("clock: negative Advance " + d.String())
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now += d.Milliseconds()
}

// SetStep makes every later Now advance the clock by d after reading it, so
// successive reads differ; zero (the default) turns stepping off. SetStep
// panics if d is negative.
func (f *Fake) SetStep(d time.Duration) {
	if d < 0 {
		panic("clock: negative step " + d.String())
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.step = d.Milliseconds()
}

// Sleep is a virtual sleep: it records d, and then returns ctx's error if
// the context is already done (the clock does not move), or advances the
// clock by d (none if d is negative) and returns nil without waiting. The
// delay is recorded even when the context is done, as the original lab
// records a retry delay before it checks the abort signal (LAB §3.7).
func (f *Fake) Sleep(ctx context.Context, d time.Duration) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sleeps = append(f.sleeps, d)
	if err := ctx.Err(); err != nil {
		return err
	}
	if d > 0 {
		f.now += d.Milliseconds()
	}
	return nil
}

// Sleeps returns every delay passed to Sleep, oldest first.
func (f *Fake) Sleeps() []time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]time.Duration(nil), f.sleeps...)
}

// SleepsMs returns every delay passed to Sleep in whole milliseconds, oldest
// first: the fixture report's retryDelaysMs (LAB §5). It is never nil.
func (f *Fake) SleepsMs() []int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]int64, len(f.sleeps))
	for i, d := range f.sleeps {
		out[i] = d.Milliseconds()
	}
	return out
}

// FormatTimestamp formats ms (Unix milliseconds) as an ISO-8601 UTC
// timestamp with exactly three fractional digits, the canonical form of
// CONTRACTS §11.2 ("2024-01-02T03:04:05.678Z").
func FormatTimestamp(ms int64) string {
	return time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05.000Z")
}
