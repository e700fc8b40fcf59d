package lab

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/matrix/oracle"
)

// CommandTrust says what a fixture run does with the calls that make the
// host spawn a process: every core tool whose catalog permissions include
// process.execute (command.run, project.validate, which runs the scripts a
// workspace's manifests declare, command.session and preview.manage), and
// git.exec when the host's promises are not evidence (DistrustContainment:
// the reference host runs git with hooks, filters and the like off, but
// its mutants git-through-shell and git-paths-as-options do not). A
// scenario file's model double chooses those calls and their command
// lines, so a scenario from outside conform chooses what runs on the
// machine that runs conform.
type CommandTrust int

const (
	// TrustCommands sends every call to the host as it is: the caller
	// vouches for the fixture (one of conform's own embedded scenarios).
	// It is the zero value, what the matrix items and the golden files
	// use.
	TrustCommands CommandTrust = iota
	// ContainCommands sends such a call to the host only when the host
	// reported an active, verified containment backend in initialize, or
	// serves the tool with a double; otherwise conform answers the call
	// itself with DenyUncontainedCommand, the host never sees it, and the
	// fixture fails with an "uncontainedCommand" failure.
	ContainCommands
	// AllowUncontainedCommands sends every such call to the host, as
	// TrustCommands does, because the user allowed it
	// (AllowUncontainedFlag); each call sent without verified containment
	// is recorded in Report.Allowances.
	AllowUncontainedCommands
)

// AllowUncontainedFlag is the command-line flag that selects
// AllowUncontainedCommands for scenarios from outside conform.
const AllowUncontainedFlag = "--allow-uncontained-commands"

// DenyUncontainedCommand is the error code of the result conform gives
// the core, in place of the host's, for a call it refused under
// ContainCommands.
const DenyUncontainedCommand = "DENY_UNCONTAINED_COMMAND"

// UncontainedCommandAssertion is the assertion of the failure a refused
// call adds to the fixture's report: the fixture did not run as written,
// whatever its expectations say.
const UncontainedCommandAssertion = "uncontainedCommand"

// spawnsProcess reports whether the core tool id makes its host spawn a
// process.
func spawnsProcess(id string) bool {
	d, ok := catalog.ByID(id)
	return ok && slices.Contains(d.Permissions, catalog.PermProcessExecute)
}

// commandLog is what a fixture run's command guards decided, across its
// host processes.
type commandLog struct {
	mu         sync.Mutex
	refused    []string // one line per refused call
	message    string   // the first refusal's message
	allowances []string
}

// commandGuard is the core's tool executor over a host's: it lets the
// calls of process-spawning tools through only as the run's CommandTrust
// says.
type commandGuard struct {
	inner port.ToolExecutor
	file  string
	trust CommandTrust
	// contained is true when the host's report of active, verified
	// containment is taken as evidence; why says why commands are not
	// contained when it is false.
	contained bool
	why       string
	// distrusted is true when the host's promises are not evidence:
	// git.exec is then guarded too.
	distrusted bool
	doubles    []string
	log        *commandLog

	mu    sync.Mutex
	names map[string]string // the host's last tool set: model name → canonical ID
}

// guardCommands returns the tool executor of the core over the host h:
// h's own when the run trusts the fixture's commands, else a guard.
func (r *fixtureRun) guardCommands(exec port.ToolExecutor, init wire.InitializeResult) port.ToolExecutor {
	if r.opts.Commands == TrustCommands {
		return exec
	}
	contained, why := containmentOf(init.Containment, r.opts.DistrustContainment)
	return &commandGuard{inner: exec, file: r.fx.File, trust: r.opts.Commands, contained: contained, why: why,
		distrusted: r.opts.DistrustContainment != "", doubles: slices.Clone(init.Doubles), log: &r.commands}
}

// containmentOf says whether a host's containment report c shows commands
// contained, and if not, why not in words. distrust, when not "", is why
// the report is not evidence.
func containmentOf(c *wire.Containment, distrust string) (bool, string) {
	switch {
	case distrust != "":
		return false, "the host's report of its containment is not taken on trust (" + distrust + ")"
	case c == nil:
		return false, "the host reports no command containment"
	case c.Active && c.Verified:
		return true, ""
	}
	state := c.Backend + "/" + c.State
	if c.Reason != nil && *c.Reason != "" {
		state += ": " + *c.Reason
	}
	return false, "the host reports no verified command containment (" + state + ")"
}

func (g *commandGuard) ToolSet(ctx context.Context) (port.ToolSet, error) {
	ts, err := g.inner.ToolSet(ctx)
	if err == nil {
		g.mu.Lock()
		g.names = ts.CanonicalToolIDs
		g.mu.Unlock()
	}
	return ts, err
}

// RestoreToolSet restores a checkpointed tool set through the host's
// executor (run.ToolSetRestorer).
func (g *commandGuard) RestoreToolSet(ctx context.Context, names []string, snapshotHash string) error {
	r, ok := g.inner.(run.ToolSetRestorer)
	if !ok {
		return errors.New("the host's tool executor cannot restore a tool set")
	}
	return r.RestoreToolSet(ctx, names, snapshotHash)
}

func (g *commandGuard) Execute(ctx context.Context, call port.ToolCall, tc port.ToolContext) (port.ToolResult, error) {
	id, spawns := g.spawning(call.Name)
	if !spawns || g.contained || slices.Contains(g.doubles, id) {
		return g.inner.Execute(ctx, call, tc)
	}
	what := fmt.Sprintf("%s (call %q)", call.Name, call.ToolCallID)
	if g.trust == AllowUncontainedCommands {
		g.log.add(fmt.Sprintf("%s went to the host without verified command containment (%s): %s", what, AllowUncontainedFlag, g.why), "", "")
		return g.inner.Execute(ctx, call, tc)
	}
	where := "where the host verifies command containment (bubblewrap on Linux)"
	if g.distrusted {
		where = "on a host whose containment report conform takes on trust"
	}
	msg := fmt.Sprintf("conform did not send %s to the host: %s is not one of conform's embedded scenarios, "+
		"so its commands run only under verified containment, and %s. Nothing was run. "+
		"Run the scenario %s, or pass %s to let its commands run uncontained, with your rights.",
		what, g.file, g.why, where, AllowUncontainedFlag)
	g.log.add("", "refused "+what, msg)
	return refusal(id, call.ToolCallID, msg), nil
}

// spawning returns the canonical ID of the tool the model name calls and
// whether it spawns a process, by the host's tool set or by the catalog's
// own names, whichever says so.
func (g *commandGuard) spawning(name string) (string, bool) {
	g.mu.Lock()
	id := g.names[name]
	g.mu.Unlock()
	if g.spawns(id) {
		return id, true
	}
	if d, ok := catalog.ByModelName(name); ok && g.spawns(d.ID) {
		if id == "" {
			id = d.ID
		}
		return id, true
	}
	return id, false
}

// spawns reports whether the core tool id spawns a process the guard must
// see to.
func (g *commandGuard) spawns(id string) bool {
	return spawnsProcess(id) || (g.distrusted && id == "git.exec")
}

// refusal is the ok=false result of a call conform refused, in the form
// of a host's refusal (CONTRACTS §7.7).
func refusal(id, callID, msg string) port.ToolResult {
	te := &port.ToolError{Code: DenyUncontainedCommand, Message: msg}
	content, _ := canon.Stringify(struct {
		OK         bool            `json:"ok"`
		Error      *port.ToolError `json:"error"`
		ToolCallID string          `json:"toolCallId"`
	}{false, te, callID})
	return port.ToolResult{OK: false, CanonicalToolID: id, Content: string(content), Summary: msg, Trust: "trusted", Error: te}
}

func (l *commandLog) add(allowance, refused, msg string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if allowance != "" {
		l.allowances = append(l.allowances, allowance)
	}
	if refused != "" {
		l.refused = append(l.refused, refused)
		if l.message == "" {
			l.message = msg
		}
	}
}

// reportCommands adds to rep what the run's command guards did: the
// allowances, and one failure for the calls they refused.
func (r *fixtureRun) reportCommands(rep *Report) {
	l := &r.commands
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.allowances) > 0 {
		rep.Allowances = slices.Clone(l.allowances)
	}
	if len(l.refused) == 0 {
		return
	}
	rep.Failures = append(rep.Failures, oracle.Failure{File: r.fx.File, Assertion: UncontainedCommandAssertion,
		Expected: "calls that spawn a process run under verified command containment, or " + AllowUncontainedFlag,
		Actual:   strings.Join(l.refused, "; "), Message: l.message})
}
