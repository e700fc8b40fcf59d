package matrix

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	toolcatalog "github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/hosts/wire/hostproc"
	. "github.com/onsi/ginkgo/v2"
)

// The time bounds of a certification, from the innermost out:
//
//   - a call: a tool/execute call gets its own timeoutMs (the catalog's
//     120 s when it carries none) plus hostproc.DispatchMargin (60 s) before
//     the host counts as hung; every other call gets the wire client's
//     call timeout (30 s);
//   - an item: each spec of an item gets Config.ItemTimeout,
//     [DefaultItemTimeout] unless set, which is longer than the bound of
//     one default call, so no item bound ends a call early;
//   - the run: the context given to [Run], which conform bounds with its
//     --timeout flag.
//
// What ends a session names itself in the item's reason: "item 13 timed
// out after 5m0s (the per-item bound)", or the run context's cause, such as
// "run timed out after 10m0s (--timeout)". Items after the end of the run
// context are skipped, not failed.

// DefaultCallBound is how long the harness waits for a tool call that
// carries no timeoutMs: the catalog's default tool timeout plus
// hostproc.DispatchMargin.
const DefaultCallBound = time.Duration(toolcatalog.DefaultToolTimeoutMs)*time.Millisecond + hostproc.DispatchMargin

// DefaultItemTimeout bounds each spec of an item unless Config.ItemTimeout
// says otherwise: one default call's bound plus two minutes for the
// spec's other calls and host start-ups.
const DefaultItemTimeout = DefaultCallBound + 2*time.Minute

// notRunPrefix starts the reason of an item skipped because the run ended
// before it started.
const notRunPrefix = "not run: "

var limits struct {
	mu  sync.Mutex
	run context.Context // the run's context; Background unless Run set one
}

// setRunContext makes ctx the parent of every session's context.
func setRunContext(ctx context.Context) {
	limits.mu.Lock()
	defer limits.mu.Unlock()
	limits.run = ctx
}

func runContext() context.Context {
	limits.mu.Lock()
	defer limits.mu.Unlock()
	if limits.run == nil {
		return context.Background()
	}
	return limits.run
}

func itemTimeout() time.Duration {
	if current != nil && current.cfg.ItemTimeout > 0 {
		return current.cfg.ItemTimeout
	}
	return DefaultItemTimeout
}

var _ = BeforeEach(func() {
	run := runContext()
	if cause := context.Cause(run); cause != nil {
		Skip(notRunPrefix + cause.Error())
	}
	id, _ := itemOf(CurrentSpecReport().Labels())
	d := itemTimeout()
	ctx, cancel := context.WithTimeoutCause(run, d, fmt.Errorf("item %d timed out after %s (the per-item bound)", id, d))
	bench.SetSpec(ctx)
	DeferCleanup(cancel)
})

// InterruptedReason is the reason of the item that was running when a
// signal stopped the run; it is skipped, not failed.
const InterruptedReason = "interrupted before it finished"

// An Interruption is the cause a caller gives the run's context when a
// signal stops the run. A spec that fails once the run's context has ended
// with an Interruption failed because of it (its session ended under it), so
// it is skipped as interrupted, like the spec Ginkgo itself interrupts.
type Interruption interface {
	error
	Interruption()
}

// interrupted reports whether a signal has stopped the run.
func interrupted() bool {
	var in Interruption
	return errors.As(context.Cause(runContext()), &in)
}
