package runs

import (
	"context"
	"errors"
	"testing"
	"time"
)

// signal is a matrix.Interruption.
type signal struct{}

func (signal) Error() string { return "interrupted" }
func (signal) Interruption() {}

func TestAwaitWaitsForFUnlessASignalEndedCtx(t *testing.T) {
	const grace = 20 * time.Millisecond
	// run reports whether Await returned, within wait, before f did.
	run := func(cause error, wait time.Duration) (returnedBeforeF bool) {
		ctx, cancel := context.WithCancelCause(context.Background())
		release, done := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(done)
			Await(ctx, grace, func() { <-release })
		}()
		cancel(cause)
		select {
		case <-done:
			returnedBeforeF = true
		case <-time.After(wait):
		}
		close(release)
		<-done
		return returnedBeforeF
	}
	if !run(signal{}, 5*time.Second) {
		t.Error("after a signal, Await still waits for f past its grace")
	}
	if run(errors.New("run timed out"), 5*grace) {
		t.Error("after a timeout, Await returned before f did")
	}
	ctx := context.Background()
	ran := false
	Await(ctx, grace, func() { ran = true })
	if !ran {
		t.Error("Await returned before f ran")
	}
}
