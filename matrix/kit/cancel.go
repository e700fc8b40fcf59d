package kit

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/galaxy-stack/conform/matrix/lab"
	"github.com/galaxy-stack/conform/matrix/oracle"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// cancelRunAfter is how long after the command has written all its PIDs
// the spec cancels the whole run.
const cancelRunAfter = 300 * time.Millisecond

// commandStartTimeout bounds the wait for the command to write its PIDs.
const commandStartTimeout = 10 * time.Second

// CanceledDuringCommand registers item 5's spec that cancels the whole run,
// as the CLI host's signal does (LAB §3.7), while its command runs. The
// fixture format has no control for that moment (a tool_start control
// fires before dispatch), so the spec cancels the run's context itself once
// the command has written its three PIDs; the scenario file, under
// external/, expects the canceled run the cancellation makes.
func CanceledDuringCommand(c *TestContext) {
	rel := path.Join(c.Dir, "external", "canceled-during-command.json")
	c.It("canceled-during-command", "C8 L5", func() {
		fx, file, err := loadScenario(rel)
		Expect(err).NotTo(HaveOccurred(), "scenario %s does not load", rel)
		t := c.Host()
		if reason := t.NotApplicable(fx); reason != "" {
			NotApplicable(reason)
		}
		ctx, cancel := context.WithCancel(c.Ctx())
		defer cancel()
		opts := t.LabOptions()
		w := &cancelOnCall{model: "run_command", pids: "pids.txt", want: 3, after: cancelRunAfter, cancel: cancel}
		opts.Interpose = func(hostOut io.Reader, hostIn io.WriteCloser) (io.Reader, io.WriteCloser) {
			w.WriteCloser = hostIn
			return hostOut, w
		}
		rep, err := lab.Run(ctx, fx, opts, true)
		if rep != nil && rep.Workspace != "" {
			defer os.RemoveAll(filepath.Dir(rep.Workspace))
		}
		AddReportEntry(ReproEntry, t.CertifyRepro(c.Ref), ReportEntryVisibilityFailureOrVerbose)
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
		o := &Outcome{Report: rep, TestContext: c, File: file, Workspace: rep.Workspace, Outside: filepath.Join(parent, fixture.OutsideDir), Store: filepath.Join(parent, "store"),
			uncontainedRun: forbidsContainment(fx, opts)}
		Expect(o.Status).To(Equal("canceled"), "%s: a run canceled while its command runs must end canceled", file)
		o.CommandGone("pids.txt", "late.txt")
	})
}

// A cancelOnCall passes the harness's messages to the host and, once the
// harness has sent a tool/execute of model, waits for the command to write
// its want PIDs to the workspace file pids (the workspace is the one the
// harness named in initialize), then cancels the run after a moment. It
// cancels at the latest after commandStartTimeout, so a host that never
// starts the command ends the spec too.
type cancelOnCall struct {
	io.WriteCloser
	model, pids string
	want        int
	after       time.Duration
	cancel      context.CancelFunc

	mu        sync.Mutex
	line      []byte
	workspace string
	seen      bool
}

func (c *cancelOnCall) Write(p []byte) (int, error) {
	c.mu.Lock()
	c.line = append(c.line, p...)
	for {
		i := bytes.IndexByte(c.line, '\n')
		if i < 0 {
			break
		}
		c.observe(c.line[:i])
		c.line = c.line[i+1:]
	}
	c.mu.Unlock()
	return c.WriteCloser.Write(p)
}

// observe looks at one message the harness sends; c.mu is held.
func (c *cancelOnCall) observe(line []byte) {
	var msg struct {
		Method string `json:"method"`
		Params struct {
			WorkspaceRoot string `json:"workspaceRoot"`
			ModelName     string `json:"modelName"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &msg) != nil {
		return
	}
	switch {
	case msg.Method == wire.MethodInitialize:
		c.workspace = msg.Params.WorkspaceRoot
	case msg.Method == wire.MethodExecute && msg.Params.ModelName == c.model && !c.seen:
		c.seen = true
		go c.cancelOnceStarted(filepath.Join(c.workspace, c.pids))
	}
}

// cancelOnceStarted waits until file holds c.want lines, then cancels the
// run c.after later.
func (c *cancelOnCall) cancelOnceStarted(file string) {
	deadline := time.Now().Add(commandStartTimeout)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(file); err == nil && bytes.Count(b, []byte("\n")) >= c.want {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(c.after)
	c.cancel()
}

func (c *cancelOnCall) fired() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.seen
}
