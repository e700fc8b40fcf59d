package matrix

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/galaxy-stack/conform/reports"
	"github.com/onsi/ginkgo/v2/types"
)

func TestItemBoundOutlastsADefaultCall(t *testing.T) {
	if DefaultCallBound != 3*time.Minute {
		t.Errorf("DefaultCallBound = %s, want 120 s of default timeoutMs + 60 s of dispatch margin", DefaultCallBound)
	}
	if DefaultItemTimeout <= DefaultCallBound {
		t.Errorf("DefaultItemTimeout %s would end a default call (bound %s) early", DefaultItemTimeout, DefaultCallBound)
	}
}

// The item running when a signal arrives is reported skipped, with no
// repro line: it did not fail.
func TestCollectSkipsTheInterruptedItem(t *testing.T) {
	tg := &target{cfg: Config{Host: "reference"}, items: map[int]*reports.Item{}}
	tg.collect(types.SpecReport{State: types.SpecStateInterrupted, LeafNodeLabels: []string{"item:1"},
		Failure: types.Failure{Message: "Interrupted by User"}})
	it := tg.items[1]
	if it == nil || it.Status != reports.Skipped || it.Repro != "" || it.Reason != InterruptedReason {
		t.Errorf("interrupted item recorded as %+v, want skipped with reason %q and no repro", it, InterruptedReason)
	}
}

// testInterruption is the cause a signal gives the run's context.
type testInterruption struct{}

func (testInterruption) Error() string { return "interrupted by SIGINT" }
func (testInterruption) Interruption() {}

// A spec that fails because the signal ended the run's context, before
// Ginkgo marked it interrupted, is skipped as interrupted too; a run that
// ended for another cause (its --timeout) still fails it.
func TestCollectSkipsASpecFailedByTheInterruption(t *testing.T) {
	for _, c := range []struct {
		cause error
		want  string
	}{{testInterruption{}, reports.Skipped}, {errors.New("run timed out after 1h (--timeout)"), reports.Failed}} {
		ctx, cancel := context.WithCancelCause(context.Background())
		cancel(c.cause)
		setRunContext(ctx)
		tg := &target{cfg: Config{Host: "reference"}, items: map[int]*reports.Item{}}
		tg.collect(types.SpecReport{State: types.SpecStateFailed, LeafNodeLabels: []string{"item:1"},
			Failure: types.Failure{Message: "scenario inspect.json: " + c.cause.Error()}})
		setRunContext(nil)
		if it := tg.items[1]; it == nil || it.Status != c.want {
			t.Errorf("cause %q: item recorded as %+v, want %s", c.cause, it, c.want)
		}
	}
}
