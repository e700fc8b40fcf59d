package reference

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/galaxy-stack/conform/core/approval"
	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/core/prompt"
	"github.com/galaxy-stack/conform/core/schema"
	"github.com/galaxy-stack/conform/hosts/reference/command"
	"github.com/galaxy-stack/conform/hosts/reference/research"
	"github.com/galaxy-stack/conform/hosts/reference/workspace"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/jsonrpc"
	"github.com/galaxy-stack/conform/hosts/wire/kit"
)

// Name and Version identify the reference host.
const (
	Name    = "conform-reference"
	Version = "1.0.0"
)

// A Host is one reference host process: it serves one session, opened by
// initialize, over the host protocol. Create it with New or NewWith; it is
// a jsonrpc.Handler, so kit.Serve serves it.
type Host struct {
	opts   Options
	prober *command.Prober
	mux    *kit.Mux

	research    *research.Client // nil when research is disabled
	researchErr error            // an invalid research configuration

	mu sync.Mutex
	s  *session // nil until initialize succeeds
}

var _ jsonrpc.Handler = (*Host)(nil)

// New returns a conformant reference host waiting for initialize.
func New() *Host { return NewWith(Options{}) }

// NewWith returns a reference host configured by opts. The containment
// probe starts at once, in the background, so that initialize rarely waits
// for it.
func NewWith(opts Options) *Host {
	h := &Host{opts: opts, prober: opts.Prober}
	if h.prober == nil {
		h.prober = command.NewProber(command.ProberConfig{HelperArgs: ProbeHelperArgs})
	}
	go h.prober.Probe()
	h.research, h.researchErr = newResearch(opts)
	m := kit.NewMux()
	m.Register(wire.MethodInitialize, kit.Typed(h.initialize))
	m.Register(wire.MethodToolsList, kit.Typed(withSession(h, (*session).toolSet)))
	m.Register(wire.MethodToolsRestore, kit.Typed(withSession(h, (*session).restore)))
	m.Register(wire.MethodExecute, kit.Typed(withSession(h, (*session).execute)))
	m.Register(wire.MethodFingerprint, kit.Typed(withSession(h, (*session).fingerprint)))
	m.Register(wire.MethodStorePut, kit.Typed(withSession(h, (*session).storePut)))
	m.Register(wire.MethodStoreGet, kit.Typed(withSession(h, (*session).storeGet)))
	m.Register(wire.MethodStoreList, kit.Typed(withSession(h, (*session).storeList)))
	m.Register(wire.MethodTraceAppend, kit.Typed(withSession(h, (*session).traceAppend)))
	m.Register(wire.MethodTraceFlush, kit.Typed(withSession(h, (*session).traceFlush)))
	m.Register(wire.MethodTraceList, kit.Typed(withSession(h, (*session).traceList)))
	m.Register(wire.MethodJobObserve, kit.Typed(withSession(h, (*session).observeJob)))
	m.Register(wire.MethodShutdown, kit.Typed(h.shutdown))
	h.mux = m
	return h
}

// Handle answers one request of the host protocol.
func (h *Host) Handle(ctx context.Context, method string, params json.RawMessage) (any, error) {
	return h.mux.Handle(ctx, method, params)
}

// withSession adapts a session method to a typed handler that answers
// ErrNotInitialized before initialize.
func withSession[P, R any](h *Host, fn func(*session, context.Context, P) (R, error)) func(context.Context, P) (R, error) {
	return func(ctx context.Context, p P) (R, error) {
		h.mu.Lock()
		s := h.s
		h.mu.Unlock()
		if s == nil {
			var zero R
			return zero, wire.ErrNotInitialized
		}
		return fn(s, ctx, p)
	}
}

func invalidParams(format string, args ...any) *wire.Error {
	return &wire.Error{Code: wire.ErrInvalidParams.Code, Message: "invalid params: " + fmt.Sprintf(format, args...)}
}

// grantedPermissions are the permissions each tool profile grants
// (LAB §20.1).
func grantedPermissions(profile string) []string {
	perms := []string{catalog.PermCoreStorage, catalog.PermFSWorkspace, catalog.PermProcessExecute}
	if profile == wire.ToolProfileFullContract {
		perms = append(perms, catalog.PermCoreArtifacts, catalog.PermNetworkOutbound, catalog.PermPreviewLocal, catalog.PermUserInteraction)
	}
	return perms
}

func (h *Host) initialize(ctx context.Context, p wire.InitializeParams) (wire.InitializeResult, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.s != nil {
		return wire.InitializeResult{}, &wire.Error{Code: wire.ErrInvalidRequest.Code, Message: "initialize was already called"}
	}
	s, err := h.open(p)
	if err != nil {
		return wire.InitializeResult{}, err
	}
	h.s = s
	return s.initResult(), nil
}

func (h *Host) shutdown(ctx context.Context, _ struct{}) (struct{}, error) {
	h.mu.Lock()
	s := h.s
	h.mu.Unlock()
	if s != nil {
		s.close()
	}
	// The containment probe started with the host may still be running
	// its sandboxed helper: wait for it (its own timeouts bound it), so
	// that the host leaves no process behind when it exits.
	h.prober.Probe()
	return struct{}{}, nil
}

// session is the state of one initialized session.
type session struct {
	h         *Host
	params    wire.InitializeParams
	faults    Faults
	corr      correlation
	root      *workspace.Root
	storeDir  string
	runner    *command.Runner // nil when commands cannot run here
	published prompt.HostEnvironment
	registry  *catalog.Registry
	catalog   *catalog.CheckedCatalog // the catalog of initialize, its document validated
	policy    *approval.Policy
	strict    *approval.Policy // asks for every high-risk call
	validator *schema.Validator
	schemas   toolSchemas // the tools' compiled schemas, see schemas.go
	profile   map[string][]string
	backed    []string
	git       string // git executable, "" when git.exec is not backed
	store     *fileStore
	trace     *fileTrace
	tasks     *taskStore
	idem      *idempotency
	// extensions are the negotiated extension flags; formatJobs is
	// project.format's durable job store.
	extensions []string
	formatJobs *formatJobs
	now        func() time.Time
	// noApprover is set once the harness answered an approval/request
	// with "method not found": it has no approver (see approval.go).
	noApprover atomic.Bool
	// storeHeld is set, under the DeclarationsPerProcess fault only, when
	// the store directory held something before this process opened it.
	storeHeld bool

	// scriptRunner runs project.validate's declared scripts: runner,
	// unless a fault gives the scripts a runner of their own.
	scriptRunner *command.Runner
	// researchState is what the research faults remember.
	researchState researchFaultState
	// validateGranted is set once the harness granted a project.validate
	// call; only the ValidateApprovalRemembered fault reads it.
	validateGranted atomic.Bool
}

func (h *Host) open(p wire.InitializeParams) (*session, error) {
	if p.ProtocolVersion != wire.ProtocolVersion {
		return nil, invalidParams("protocolVersion %q is not %q", p.ProtocolVersion, wire.ProtocolVersion)
	}
	checked, err := catalog.CheckCatalog(p.Catalog.Tools)
	if err != nil {
		return nil, invalidParams("catalog: %v", err)
	}
	if h.researchErr != nil {
		return nil, &wire.Error{Code: wire.ErrInternal.Code, Message: "research configuration: " + h.researchErr.Error()}
	}
	if err := h.allowLoopback(p); err != nil {
		return nil, err
	}
	root, err := workspace.OpenWithFaults(p.WorkspaceRoot, h.opts.Faults.Workspace)
	if err != nil {
		return nil, invalidParams("workspaceRoot: %v", err)
	}
	root.WithChoices(h.opts.Choices.Workspace)
	storeDir, err := openStoreDir(p.StoreDir, root.Dir())
	if err != nil {
		return nil, invalidParams("storeDir: %v", err)
	}
	s := &session{
		h: h, params: p, faults: h.opts.Faults, root: root, storeDir: storeDir,
		validator: schema.NewValidator(), profile: p.EffectProfile.Tools, now: h.opts.Now,
		catalog: checked,
	}
	if s.now == nil {
		s.now = func() time.Time { return time.Unix(0, 0).UTC() }
	}
	for id, caps := range p.EffectProfile.Tools {
		if effects.IsCoreTool(id) {
			if err := effects.AssertCoreCapabilities(id, caps); err != nil {
				return nil, invalidParams("effectProfile: %v", err)
			}
		}
	}
	if s.faults.Prompt.DeclarationsPerProcess {
		s.storeHeld = storeHeldRun(storeDir)
	}
	if err := s.openCommands(); err != nil {
		return nil, err
	}
	s.git = h.findGit()
	if s.store, err = newFileStore(s.storeBase(storeDir), s.faults.StoreAckWithoutPersist); err != nil {
		return nil, invalidParams("storeDir: %v", err)
	}
	s.store.alias, s.store.reorder = s.faults.StoreAliasesDocuments, s.faults.StoreReordersDocuments
	if s.trace, err = openTrace(storeDir, s.faults.TraceFlushNotDurable); err != nil {
		return nil, invalidParams("storeDir: %v", err)
	}
	s.tasks = newTaskStore(storeDir, s.faults.LoseTaskCheckpoint)
	s.idem = newIdempotency(storeDir, s.faults.IdempotencyInMemory)
	if !h.opts.Choices.NoExtensions {
		s.extensions = negotiateExtensions(p.Extensions)
	}
	if s.formatJobs, err = newFormatJobs(storeDir); err != nil {
		return nil, invalidParams("storeDir: %v", err)
	}
	if err := s.buildRegistry(); err != nil {
		return nil, err
	}
	if err := s.buildPolicies(); err != nil {
		return nil, err
	}
	return s, nil
}

// openStoreDir checks that dir is an absolute directory outside the
// workspace (CONTRACTS §13.7), creating it if needed, and returns its real
// path.
func openStoreDir(dir, workspaceReal string) (string, error) {
	if !filepath.IsAbs(dir) {
		return "", fmt.Errorf("%q is not absolute", dir)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", err
	}
	if within(real, workspaceReal) || within(workspaceReal, real) {
		return "", errors.New("the store overlaps the workspace")
	}
	return real, nil
}

func within(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, dir+string(filepath.Separator))
}

func (h *Host) findGit() string {
	name := h.opts.Git
	if name == "" {
		name = "git"
	}
	p, err := exec.LookPath(name)
	if err != nil {
		return ""
	}
	return p
}

func (s *session) openCommands() error {
	var probe command.ProbeResult
	if s.params.ForbidContainmentBackends {
		probe = command.ForbiddenProbe()
	} else {
		probe = s.h.prober.Probe()
	}
	spill := filepath.Join(s.storeDir, "spill")
	if err := os.MkdirAll(spill, 0o700); err != nil {
		return invalidParams("storeDir: %v", err)
	}
	r, err := command.New(command.Options{Root: s.root.Dir(), Containment: command.Mode(s.params.Containment), Probe: &probe, SpillDir: spill, Faults: s.faults.Command})
	if err != nil {
		// No interpreter on this platform: command tools are not backed.
		return nil
	}
	s.runner = r
	s.scriptRunner = r
	if s.faults.ValidateSkipsContainmentGate {
		f := s.faults.Command
		f.SkipContainmentGate = true
		if sr, err := command.New(command.Options{Root: s.root.Dir(), Containment: command.Mode(s.params.Containment), Probe: &probe, SpillDir: spill, Faults: f}); err == nil {
			s.scriptRunner = sr
		}
	}
	s.published = r.Environment()
	if s.faults.PublishOtherEnvironment {
		s.published.Command.Executable = "/bin/bash"
		s.published.Command.Shell = "bash"
	}
	if s.faults.PublishLoginShell {
		s.published.Command.Shell = "zsh"
	}
	if s.faults.UnknownShellEnvironment {
		s.published.Command.Shell = "unknown"
	}
	return nil
}

// backedTools are the canonical tools this host can serve in the session.
func (s *session) backedTools() []string {
	ids := []string{"catalog.search", "project.detect", "task.checkpoint", "workspace.edit",
		"workspace.glob", "workspace.grep", "workspace.list", "workspace.read", "workspace.write"}
	if s.runner != nil {
		ids = append(ids, "command.run", "project.validate")
	}
	if s.git != "" {
		ids = append(ids, "git.exec")
	}
	if s.h.research != nil {
		ids = append(ids, "research.fetch")
		if s.h.research.CanSearch() {
			ids = append(ids, "research.search")
		}
	}
	sort.Strings(ids)
	return ids
}

func (s *session) buildRegistry() error {
	inCatalog := map[string]bool{}
	for _, d := range s.params.Catalog.Tools {
		inCatalog[d.ID] = true
	}
	for _, id := range s.backedTools() {
		if inCatalog[id] {
			s.backed = append(s.backed, id)
		}
	}
	snap, err := catalog.NewSnapshot(catalog.Options{
		Checked:            s.catalog,
		AvailableToolIDs:   s.backed,
		GrantedPermissions: s.permissions(),
		Mode:               s.activeMode(),
	})
	if err != nil {
		return invalidParams("catalog: %v", err)
	}
	reg, err := catalog.NewRegistry(snap)
	if err != nil {
		return invalidParams("catalog: %v", err)
	}
	s.registry = reg
	return nil
}

// permissions are the permissions the session's tool profile grants (the
// OutboundWithoutPermission fault adds network.outbound whatever it is).
func (s *session) permissions() []string {
	perms := grantedPermissions(s.params.ToolProfile)
	if s.faults.OutboundWithoutPermission && !slices.Contains(perms, catalog.PermNetworkOutbound) {
		perms = append(perms, catalog.PermNetworkOutbound)
	}
	return perms
}

func (s *session) buildPolicies() error {
	profile, err := approval.ParseProfile(s.params.ApprovalProfile)
	if err != nil {
		return invalidParams("approvalProfile: %v", err)
	}
	if s.faults.BalancedApprovalProfile {
		profile = approval.Balanced
	}
	opts := []approval.Option{
		approval.WithPermissions(s.permissions()...),
		approval.WithApprover(approval.ApproverFunc(s.askHarness)),
	}
	if s.params.ApprovalTimeoutMs > 0 {
		opts = append(opts, approval.WithTimeout(int64(s.params.ApprovalTimeoutMs)))
	}
	if s.policy, err = approval.NewPolicy(profile, opts...); err != nil {
		return err
	}
	s.strict, err = approval.NewPolicy(approval.Strict, opts...)
	return err
}

func (s *session) initResult() wire.InitializeResult {
	r := wire.InitializeResult{
		ProtocolVersion: wire.ProtocolVersion,
		Host:            wire.HostInfo{Name: Name, Version: Version},
		Tools:           append([]string{}, s.backed...),
		Capabilities:    wire.HostCapabilities{Store: true, Trace: true, Spill: s.runner != nil, Fingerprint: true},
		Extensions:      append([]string(nil), s.extensions...),
	}
	if s.faults.ResearchUndisclosedDouble {
		r.Doubles = []string{"research.fetch"}
	}
	if s.runner != nil {
		env := s.published.Clone()
		env.Command.ArgumentsPrefix = append([]string{}, env.Command.ArgumentsPrefix...)
		r.CommandEnvironment = &env
		st := s.runner.Containment()
		r.Containment = &wire.Containment{
			Active: st.Active, Backend: string(st.Backend), Executable: st.Executable,
			FilesystemReads: st.FilesystemReads, FilesystemWrites: st.FilesystemWrites, Mode: string(st.Mode),
			Network: st.Network, Reason: st.Reason, State: string(st.State), Verified: st.Verified,
		}
		if s.faults.SandboxLabelBestEffort && !st.Verified {
			r.Containment.Active, r.Containment.Verified, r.Containment.State = true, true, string(command.StateActive)
			r.Containment.Reason = nil
		}
	}
	s.publishFaults(&r)
	r.PromptInput = s.promptInput()
	return r
}

func (s *session) close() {
	s.trace.close()
}

// activeMode is the task mode the active tool set is built for.
func (s *session) activeMode() string {
	if s.faults.IgnoreMode {
		return "auto"
	}
	return s.params.Mode
}
