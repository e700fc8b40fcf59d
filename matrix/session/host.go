package session

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/prompt"
	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/hostproc"
)

// HostConfig says how to start and initialize one host process for a
// session. Workspace and StoreDir must be absolute directories that do not
// overlap.
type HostConfig struct {
	// Argv is the host's command line (see builtin.Command).
	Argv []string
	// Workspace and StoreDir are the session's workspace root and the
	// host's store directory. A host started again on the same StoreDir
	// resumes its checkpoints, trace and task state (fresh-host resume).
	Workspace, StoreDir string
	// Mode, ApprovalProfile, Containment and ToolProfile are sent in
	// initialize; "" means auto, balanced, best_effort and host.
	Mode, ApprovalProfile, Containment, ToolProfile string
	// ForbidContainment asks the host to behave as if no containment
	// backend existed (DECISIONS 65).
	ForbidContainment bool
	// WithoutTools are canonical IDs left out of the catalog sent to the
	// host: git.exec when the workspace has no Git baseline.
	WithoutTools []string
	// Approvals answers the host's approval/request: a canonical ID or a
	// model-facing name mapped to "allow" or "deny", looked up in that
	// order; anything else is denied (LAB §22.1).
	Approvals map[string]string
	// Approver, when not "", replaces Approvals: "absent" answers no
	// approval/request (method not found, as when no approver is
	// configured), "silent" never answers one, so the host's approval
	// timeout expires (the request's context ends when the host cancels
	// it or the connection closes).
	Approver string
	// Approve, if set, answers every approval/request in place of
	// Approvals and Approver: a check's way to act while the host waits
	// for a decision.
	Approve func(context.Context, wire.ApprovalParams) (wire.ApprovalDecision, error)
	// ApprovalTimeoutMs is sent in initialize; 0 means the host's default.
	ApprovalTimeoutMs int
	// Interpose wraps the host's pipes, for the fault proxy; nil connects
	// the harness to the host directly.
	Interpose func(hostOut io.Reader, hostIn io.WriteCloser) (io.Reader, io.WriteCloser)
	// PassEnv names the harness's environment variables the host inherits
	// beyond hostproc.DefaultEnv (the CLI's --host-env NAME).
	PassEnv []string
	// Env, if not nil, is the host's whole environment (hostproc.StartOptions
	// Env): PassEnv and the session's own HOME are then not used.
	Env []string
	// Home is the host's home directory (HOME; TMPDIR is its "tmp"); ""
	// means a temporary directory removed when the host is closed.
	Home string
	// OnSend and OnRecv, if set, observe every JSON-RPC message the harness
	// sends to the host and receives from it, one line without its newline,
	// on the harness's side of Interpose. The line must not be kept: copy
	// it. They must not block.
	OnSend, OnRecv func(line []byte)
	// CallTimeout bounds every call but tool/execute
	// (hostproc.StartOptions.CallTimeout); zero means 30 s.
	CallTimeout time.Duration
	// EditInitialize, if set, edits the initialize parameters before they
	// are sent: a matrix check's way to give a host a catalog it cannot
	// satisfy.
	EditInitialize func(*wire.InitializeParams)
}

// A Host is one started and initialized host process and the core's ports
// over it: the tool executor, and, when the host offers them, the run
// store, the trace and the workspace fingerprint verifier.
type Host struct {
	// Init is the host's answer to initialize.
	Init wire.InitializeResult

	client *hostproc.Client
	exec   *executor
	mu     sync.Mutex
	asked  []Approval
}

// An Approval is one approval/request the harness answered.
type Approval struct {
	CanonicalToolID string `json:"canonicalToolId"`
	ModelName       string `json:"modelName"`
	Approved        bool   `json:"approved"`
	// Unanswered is true when the harness gave no answer (a silent
	// approver): the host had to time the request out.
	Unanswered bool `json:"unanswered,omitempty"`
}

// StartHost starts the host process of cfg.Argv and initializes it. An
// executable that cannot be started is returned as the *exec.Error of
// hostproc.Start; a host that starts and then fails initialize is closed and
// its error returned, with the host's standard error appended.
//
// Under a context that carries an [InitWatch], a host the watch counts dead
// is not started again: StartHost returns the watch's *DeadHostError.
func StartHost(ctx context.Context, cfg HostConfig) (*Host, error) {
	watch := initWatchOf(ctx)
	if watch != nil {
		if err := watch.Err(); err != nil {
			return nil, err
		}
	}
	h := &Host{}
	client, err := hostproc.Start(cfg.Argv, hostproc.StartOptions{Dir: cfg.Workspace, Approver: h.approverFor(cfg), Interpose: cfg.Interpose,
		PassEnv: cfg.PassEnv, Env: cfg.Env, Home: cfg.Home, OnSend: cfg.OnSend, OnRecv: cfg.OnRecv, CallTimeout: cfg.CallTimeout})
	if err != nil {
		return nil, err
	}
	h.client = client
	h.exec = &executor{client: client}
	params := hostParams(cfg)
	if cfg.EditInitialize != nil {
		cfg.EditInitialize(&params)
	}
	h.Init, err = client.Initialize(ctx, params)
	if err != nil {
		grace := 5 * time.Second
		if hostproc.Unanswered(err) {
			grace = 0 // nothing is owed to a host that never answered: it is killed at once
		}
		_ = client.Close(grace)
		if s := client.Stderr(); s != "" {
			err = fmt.Errorf("%w (host stderr: %q)", err, tailOf(s, 400))
		}
	}
	if watch != nil && ctx.Err() == nil {
		watch.observe(!hostproc.Unanswered(err), err)
	}
	if err != nil {
		return nil, err
	}
	return h, nil
}

func tailOf(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

func hostParams(cfg HostConfig) wire.InitializeParams {
	orDefault := func(v, d string) string {
		if v == "" {
			return d
		}
		return v
	}
	cat := catalog.ForHost()
	if len(cfg.WithoutTools) > 0 {
		var kept []catalog.Descriptor
		for _, d := range cat.Tools {
			if !slices.Contains(cfg.WithoutTools, d.ID) {
				kept = append(kept, d)
			}
		}
		cat.Tools = kept
	}
	return wire.InitializeParams{
		ProtocolVersion: wire.ProtocolVersion, WorkspaceRoot: cfg.Workspace, StoreDir: cfg.StoreDir,
		Catalog:         cat,
		EffectProfile:   wire.EffectProfile{Version: effects.ProfileVersion, Tools: effects.CoreProfile()},
		Mode:            orDefault(cfg.Mode, port.ModeAuto),
		ApprovalProfile: orDefault(cfg.ApprovalProfile, "balanced"),
		Containment:     orDefault(cfg.Containment, wire.ContainmentBestEffort),
		ToolProfile:     orDefault(cfg.ToolProfile, wire.ToolProfileHost),

		ForbidContainmentBackends: cfg.ForbidContainment,
		ApprovalTimeoutMs:         cfg.ApprovalTimeoutMs,
	}
}

// Approver modes of HostConfig.Approver.
const (
	ApproverAbsent = "absent"
	ApproverSilent = "silent"
)

// approverFor is the approver cfg asks for: none for ApproverAbsent, one
// that never answers for ApproverSilent, else the decisions' approver.
func (h *Host) approverFor(cfg HostConfig) func(context.Context, wire.ApprovalParams) (wire.ApprovalDecision, error) {
	if cfg.Approve != nil {
		return cfg.Approve
	}
	switch cfg.Approver {
	case ApproverAbsent:
		return nil
	case ApproverSilent:
		return func(ctx context.Context, p wire.ApprovalParams) (wire.ApprovalDecision, error) {
			h.mu.Lock()
			h.asked = append(h.asked, Approval{CanonicalToolID: p.CanonicalToolID, ModelName: p.ModelName, Unanswered: true})
			h.mu.Unlock()
			<-ctx.Done()
			return wire.ApprovalDecision{}, ctx.Err()
		}
	}
	return h.approver(cfg.Approvals)
}

// approver answers approval/request from decisions (LAB §22.1): the
// canonical ID first, then the model-facing name, else deny.
func (h *Host) approver(decisions map[string]string) func(context.Context, wire.ApprovalParams) (wire.ApprovalDecision, error) {
	return func(ctx context.Context, p wire.ApprovalParams) (wire.ApprovalDecision, error) {
		d, ok := decisions[p.CanonicalToolID]
		if !ok {
			d = decisions[p.ModelName]
		}
		approved := d == "allow"
		h.mu.Lock()
		h.asked = append(h.asked, Approval{CanonicalToolID: p.CanonicalToolID, ModelName: p.ModelName, Approved: approved})
		h.mu.Unlock()
		if approved {
			return wire.ApprovalDecision{Approved: true, Scope: "once", Reason: fmt.Sprintf("Fixture explicitly approved %s.", p.CanonicalToolID)}, nil
		}
		return wire.ApprovalDecision{Approved: false, Scope: "once", Reason: fmt.Sprintf("Fixture denied %s; missing decisions fail closed.", p.CanonicalToolID)}, nil
	}
}

// Approvals returns the approval requests the harness answered, in order.
func (h *Host) Approvals() []Approval {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.asked)
}

// Client returns the wire client of the host process.
func (h *Host) Client() *hostproc.Client { return h.client }

// Executor returns the core's tool executor over the host. It also
// restores a checkpointed tool set on resume (run.ToolSetRestorer).
func (h *Host) Executor() port.ToolExecutor { return h.exec }

// RunStore returns the core's run store over the host's store/* methods,
// or nil when the host offers no store.
func (h *Host) RunStore() port.RunStore {
	if !h.Init.Capabilities.Store {
		return nil
	}
	return &hostStore{client: h.client, exec: h.exec}
}

// Trace returns the core's trace port over the host's trace/* methods,
// or nil when the host offers no trace.
func (h *Host) Trace() port.Trace {
	if !h.Init.Capabilities.Trace {
		return nil
	}
	return &hostTrace{client: h.client, exec: h.exec}
}

// Verifier returns the core's workspace evidence verifier over the host's
// workspace/fingerprint, or nil when the host offers no fingerprint.
func (h *Host) Verifier() run.Verifier {
	if !h.Init.Capabilities.Fingerprint {
		return nil
	}
	return &hostVerifier{client: h.client, exec: h.exec}
}

// HostEnvironment returns the host's command environment in the run
// request's prompt form, or nil when the host published none.
func (h *Host) HostEnvironment() *prompt.HostEnvironment {
	return hostEnvironment(h.Init.CommandEnvironment)
}

// Checkpoints returns every checkpoint the host's store holds for runID,
// in put order, or an error when the host offers no store.
func (h *Host) Checkpoints(ctx context.Context, runID string) ([][]byte, error) {
	if !h.Init.Capabilities.Store {
		return nil, errors.New("the host offers no store")
	}
	entries, err := h.client.StoreList(ctx, wire.StoreListParams{RunID: runID, Kind: wire.KindCheckpoint})
	err = h.exec.record(err)
	if err != nil {
		return nil, err
	}
	out := make([][]byte, len(entries))
	for i, e := range entries {
		out[i] = slices.Clone([]byte(e.Document))
	}
	return out, nil
}

// HostError returns the first way the host broke the protocol, or nil.
func (h *Host) HostError() error { return h.exec.hostError() }

// Stderr returns the tail of the host's standard error, secrets redacted.
func (h *Host) Stderr() string { return h.client.Stderr() }

// Incidents returns what the harness had to do about the host beyond the
// protocol, as human sentences (see hostproc.Client.Incidents): killing it
// when it did not exit after shutdown, killing the processes it left
// running, refusing an approval/request sent while no tool/execute was in
// flight; and then, for a run its deadline ended, each call the host had
// not answered then, named by method, request id, tool and how long it had
// been outstanding (see hungAtDeadline). Call it after Close for the
// complete list.
func (h *Host) Incidents() []string {
	return append(h.client.Incidents(), hungAtDeadline(h.client.GaveUp())...)
}

// hungAtDeadline names the calls the harness gave up on because the run's
// deadline (DEADLINE_EXCEEDED) ended the run before the host answered
// them: the run's own error does not say which call hung.
func hungAtDeadline(calls []hostproc.GaveUpCall) []string {
	var out []string
	for _, g := range calls {
		var re *run.Error
		if errors.As(g.Cause, &re) && re.Code == run.CodeDeadlineExceeded {
			out = append(out, fmt.Sprintf("the run's deadline passed while the host had not answered %s", g))
		}
	}
	return out
}

// Close shuts the host down and waits for it to exit. A protocol break
// recorded earlier takes precedence over the shutdown's own error. A host
// that answered shutdown but did not exit within 5 s is killed and Close
// returns a *wire.ProtocolError saying so, so that the item fails.
func (h *Host) Close() error {
	err := h.client.Close(5 * time.Second)
	if herr := h.HostError(); herr != nil {
		return herr
	}
	return err
}
