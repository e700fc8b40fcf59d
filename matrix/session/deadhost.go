package session

import (
	"context"
	"fmt"
	"sync"
)

// DeadAfter is how many initialize calls in a row a host may leave
// unanswered before [InitWatch] counts it dead.
const DeadAfter = 2

// DeadHostReason starts the text of a *DeadHostError, and so the reason of
// every item a certification skipped because of it.
const DeadHostReason = "the host failed initialize twice in a row"

// A DeadHostError says the host left initialize unanswered DeadAfter
// times in a row: it never answered within the call's bound, or it exited
// (or closed its output) first. Last is the last of those failures.
type DeadHostError struct{ Last error }

func (e *DeadHostError) Error() string {
	return fmt.Sprintf("%s: %v", DeadHostReason, e.Last)
}

// Unwrap returns the last initialize failure.
func (e *DeadHostError) Unwrap() error { return e.Last }

// An InitWatch counts the initialize calls a host leaves unanswered in a
// row, over every session started under a context that carries it
// ([WithInitWatch]), so that a certification stops starting a host that
// cannot start. A host that answers initialize, even with an error, resets
// the count; a failure because the caller's context ended does not count.
// Once the host is dead, StartHost under the watch's context fails at once
// with the *DeadHostError, and the watch's callback has been called with
// it. An InitWatch is safe for concurrent use.
type InitWatch struct {
	mu     sync.Mutex
	inRow  int
	dead   *DeadHostError
	onDead func(error)
}

// NewInitWatch returns a watch that calls onDead (if not nil), once, with
// the *DeadHostError when the host is found dead: conform's certify ends
// the run's context with it, so that the items left are skipped.
func NewInitWatch(onDead func(error)) *InitWatch { return &InitWatch{onDead: onDead} }

// Err returns the *DeadHostError once the host is dead, and nil before.
func (w *InitWatch) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.dead == nil {
		return nil
	}
	return w.dead
}

// observe records one initialize: answered or not. err is the call's
// error, nil when the host answered it.
func (w *InitWatch) observe(answered bool, err error) {
	w.mu.Lock()
	if answered {
		w.inRow = 0
		w.mu.Unlock()
		return
	}
	w.inRow++
	var dead *DeadHostError
	if w.inRow >= DeadAfter && w.dead == nil {
		w.dead = &DeadHostError{Last: err}
		dead = w.dead
	}
	w.mu.Unlock()
	if dead != nil && w.onDead != nil {
		w.onDead(dead)
	}
}

type initWatchKey struct{}

// WithInitWatch returns a copy of ctx that carries w: StartHost under it
// reports each initialize to w, and refuses to start a host w counts dead.
func WithInitWatch(ctx context.Context, w *InitWatch) context.Context {
	return context.WithValue(ctx, initWatchKey{}, w)
}

// initWatchOf returns the watch ctx carries, or nil.
func initWatchOf(ctx context.Context) *InitWatch {
	w, _ := ctx.Value(initWatchKey{}).(*InitWatch)
	return w
}
