package matrix

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/galaxy-stack/conform/matrix/lab"
	"github.com/galaxy-stack/conform/matrix/oracle"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// cancelRunAfter is how long after the harness dispatched the command the
// spec cancels the whole run.
const cancelRunAfter = 250 * time.Millisecond

// canceledDuringCommand registers item 5's spec that cancels the whole run,
// as the CLI host's signal does (LAB §3.7), while its command runs. The
// fixture format has no control for that moment (a tool_start control
// fires before dispatch), so the spec cancels the run's context itself once
// the harness has sent the run_command call; the scenario file, under
// external/, expects the canceled run the cancellation makes.
func canceledDuringCommand() {
	rel := path.Join(scenarioDir(*describing), "external", "canceled-during-command.json")
	It("canceled-during-command", func() {
		fx, file, err := loadScenario(rel)
		Expect(err).NotTo(HaveOccurred(), "scenario %s does not load", rel)
		t := hostUnderTest()
		if reason := t.notApplicable(fx); reason != "" {
			notApplicable(reason)
		}
		ctx, cancel := context.WithCancel(itemContext())
		defer cancel()
		opts := t.labOptions()
		w := &cancelOnCall{model: "run_command", after: cancelRunAfter, cancel: cancel}
		opts.Interpose = func(hostOut io.Reader, hostIn io.WriteCloser) (io.Reader, io.WriteCloser) {
			w.WriteCloser = hostIn
			return hostOut, w
		}
		rep, err := lab.Run(ctx, fx, opts, true)
		if rep != nil && rep.Workspace != "" {
			defer os.RemoveAll(filepath.Dir(rep.Workspace))
		}
		AddReportEntry(reproEntry, t.certifyRepro(5), ReportEntryVisibilityFailureOrVerbose)
		Expect(err).NotTo(HaveOccurred(), "%s: the run canceled while its command ran could not be observed", file)
		Expect(w.fired()).To(BeTrue(), "%s: the harness never sent the run_command call, so it could not cancel the run during it", file)
		// The lab observes the run's store with the context the spec
		// canceled; that listing fails on the harness's side, not the
		// host's (a canceled run writes no checkpoint, RUNTIME §22.3).
		rep.Failures = slices.DeleteFunc(rep.Failures, func(f oracle.Failure) bool {
			return f.Assertion == "checkpointIntegrity" && strings.Contains(f.Actual, context.Canceled.Error())
		})
		if len(rep.Failures) > 0 {
			Fail(describeFailures(file, rep))
		}
		parent := filepath.Dir(rep.Workspace)
		o := &outcome{Report: rep, File: file, Workspace: rep.Workspace, Outside: filepath.Join(parent, fixture.OutsideDir), Store: filepath.Join(parent, "store")}
		Expect(o.Status).To(Equal("canceled"), "%s: a run canceled while its command runs must end canceled", file)
		o.commandGone("pids.txt", "late.txt")
	})
}

// A cancelOnCall passes the harness's messages to the host and cancels the
// run a moment after the first tool/execute of model.
type cancelOnCall struct {
	io.WriteCloser
	model  string
	after  time.Duration
	cancel context.CancelFunc
	once   sync.Once
	mu     sync.Mutex
	seen   bool
}

func (c *cancelOnCall) Write(p []byte) (int, error) {
	if bytes.Contains(p, []byte(`"tool/execute"`)) && bytes.Contains(p, []byte(fmt.Sprintf("%q", c.model))) {
		c.once.Do(func() {
			c.mu.Lock()
			c.seen = true
			c.mu.Unlock()
			time.AfterFunc(c.after, c.cancel)
		})
	}
	return c.WriteCloser.Write(p)
}

func (c *cancelOnCall) fired() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.seen
}
