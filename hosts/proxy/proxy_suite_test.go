package proxy_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/hosts/hosttest"
	"github.com/galaxy-stack/conform/hosts/proxy"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/hostproc"
	"github.com/galaxy-stack/conform/internal/suite"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// TestMain lets every spec run the reference host as its own process: the
// test binary re-executed as `host serve reference` (which also serves the
// containment probe's in-sandbox helper).
func TestMain(m *testing.M) { suite.Main(m, builtin.MaybeServeTest) }

func TestProxy(t *testing.T) {
	suite.Run(t, "hosts/proxy")
}

// setup configures one reference host process behind a proxy.
type setup struct {
	// rules are the proxy's rules, as scenario.json holds them.
	rules string
	// approvalProfile is initialize's approvalProfile; "" means
	// trusted-workspace, under which the host asks for no approval.
	approvalProfile string
	// uncontained makes the host run commands without a containment
	// backend, so that the PIDs a command sees are the host's.
	uncontained bool
	// interpose starts the host with hostproc.Start and attaches the proxy
	// through hostproc.StartOptions.Interpose; otherwise the test starts the
	// process itself and connects with hostproc.Connect over Proxy.Attach.
	interpose bool
}

// session is a reference host process behind a proxy, and the harness's
// client.
type session struct {
	ws     string
	proxy  *proxy.Proxy
	client *hostproc.Client
	cmd    *exec.Cmd     // the host process, when the test started it
	exited chan struct{} // closed when cmd has exited

	mu        sync.Mutex
	approvals []wire.ApprovalParams
	calls     int
}

// startSession starts the reference host (the test binary re-executed as
// `host serve reference`) with a fresh workspace, puts a proxy with the
// setup's rules between it and a strict client, and initializes it.
func startSession(su setup) *session {
	GinkgoHelper()
	rs, err := proxy.DecodeRules([]byte(su.rules))
	Expect(err).NotTo(HaveOccurred())
	p, err := proxy.New(rs)
	Expect(err).NotTo(HaveOccurred())
	s := &session{ws: GinkgoT().TempDir(), proxy: p, exited: make(chan struct{})}
	opts := hostproc.StartOptions{CallTimeout: 10 * time.Second, Approver: s.approve}
	if su.interpose {
		opts.Interpose = p.Attach
		s.client, err = hostproc.Start(referenceArgv(), opts)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { _ = s.client.Close(5 * time.Second) })
	} else {
		s.startProcess(p, opts)
	}
	profile := su.approvalProfile
	if profile == "" {
		profile = "trusted-workspace"
	}
	params := hosttest.InitializeParams(s.ws, GinkgoT().TempDir())
	params.ApprovalProfile, params.ForbidContainmentBackends = profile, su.uncontained
	_, err = s.client.Initialize(context.Background(), params)
	Expect(err).NotTo(HaveOccurred())
	_, err = s.client.ToolSet(context.Background())
	Expect(err).NotTo(HaveOccurred())
	return s
}

// startProcess starts the reference host with exec and connects the client
// to it through p.Attach.
func (s *session) startProcess(p *proxy.Proxy, opts hostproc.StartOptions) {
	GinkgoHelper()
	argv := referenceArgv()
	s.cmd = exec.Command(argv[0], argv[1:]...)
	s.cmd.Stderr = GinkgoWriter
	stdin, err := s.cmd.StdinPipe()
	Expect(err).NotTo(HaveOccurred())
	stdout, err := s.cmd.StdoutPipe()
	Expect(err).NotTo(HaveOccurred())
	Expect(s.cmd.Start()).To(Succeed())
	go func() { _ = s.cmd.Wait(); close(s.exited) }()
	DeferCleanup(func() {
		_ = s.client.Close(2 * time.Second)
		_ = stdin.Close()
		select {
		case <-s.exited:
		case <-time.After(5 * time.Second):
			_ = s.cmd.Process.Kill()
			<-s.exited
		}
	})
	clientIn, clientOut := p.Attach(stdout, stdin)
	s.client = hostproc.Connect(clientIn, clientOut, opts)
}

// approve approves every approval request once and records it.
func (s *session) approve(_ context.Context, p wire.ApprovalParams) (wire.ApprovalDecision, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.approvals = append(s.approvals, p)
	return wire.ApprovalDecision{Approved: true, Scope: "once"}, nil
}

// approved returns the approval requests the client answered.
func (s *session) approved() []wire.ApprovalParams {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]wire.ApprovalParams(nil), s.approvals...)
}

// referenceArgv re-executes the test binary as the built-in reference host.
func referenceArgv() []string {
	exe, err := os.Executable()
	Expect(err).NotTo(HaveOccurred())
	return []string{exe, "host", "serve", "reference"}
}

// execute runs one tool call through the proxy, with a call ID and
// idempotency key of its own.
func (s *session) execute(model string, args map[string]any) (port.ToolResult, error) {
	return s.executeCtx(context.Background(), model, args)
}

func (s *session) executeCtx(ctx context.Context, model string, args map[string]any) (port.ToolResult, error) {
	b, err := json.Marshal(args)
	Expect(err).NotTo(HaveOccurred())
	s.mu.Lock()
	s.calls++
	n := s.calls
	s.mu.Unlock()
	return s.client.Execute(ctx, wire.ExecuteParams{
		CallID: fmt.Sprintf("call-%d", n), ModelName: model, Arguments: b, IdempotencyKey: fmt.Sprintf("key-%d", n), TimeoutMs: 10000,
		Context: wire.RunContext{RunID: "run-1", TaskID: "task-1", Mode: "auto"},
	})
}

// onDisk returns the content of a workspace file, or "<absent>".
func (s *session) onDisk(rel string) string {
	b, err := os.ReadFile(filepath.Join(s.ws, rel))
	if err != nil {
		return absent
	}
	return string(b)
}

// hostExited reports whether the host process the test started has exited.
func (s *session) hostExited() bool {
	select {
	case <-s.exited:
		return true
	default:
		return false
	}
}

const absent = "<absent>"

// protocolError returns err as the transport/protocol error it must be.
func protocolError(err error) *wire.ProtocolError {
	GinkgoHelper()
	var pe *wire.ProtocolError
	Expect(errors.As(err, &pe)).To(BeTrue(), "want a transport/protocol error, got %v", err)
	return pe
}

// rpcError returns err as the JSON-RPC error the host (or the proxy)
// answered with.
func rpcError(err error) *wire.Error {
	GinkgoHelper()
	var we *wire.Error
	Expect(errors.As(err, &we)).To(BeTrue(), "want a JSON-RPC error, got %v", err)
	return we
}
