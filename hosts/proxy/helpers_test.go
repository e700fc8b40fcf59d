package proxy_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/proxy"
	"github.com/galaxy-stack/conform/hosts/wire"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// session is a host process behind a proxy, and the harness's client.
type session struct {
	ws     string
	proxy  *proxy.Proxy
	client *wire.Client
	cmd    *exec.Cmd
}

// startSession starts the host argv with a fresh workspace, puts a proxy
// with rules between it and a strict client, and initializes it.
func startSession(argv []string, rules string) *session {
	GinkgoHelper()
	rs, err := proxy.DecodeRules([]byte(rules))
	Expect(err).NotTo(HaveOccurred())
	p, err := proxy.New(rs)
	Expect(err).NotTo(HaveOccurred())
	s := &session{ws: GinkgoT().TempDir(), proxy: p}
	s.cmd = exec.Command(argv[0], argv[1:]...)
	s.cmd.Stderr = GinkgoWriter
	stdin, err := s.cmd.StdinPipe()
	Expect(err).NotTo(HaveOccurred())
	stdout, err := s.cmd.StdoutPipe()
	Expect(err).NotTo(HaveOccurred())
	Expect(s.cmd.Start()).To(Succeed())
	DeferCleanup(func() {
		_ = s.client.Close(2 * time.Second)
		_ = stdin.Close()
		done := make(chan struct{})
		go func() { _ = s.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = s.cmd.Process.Kill()
			<-done
		}
	})
	clientIn, clientOut := p.Attach(stdout, stdin)
	s.client = wire.Connect(clientIn, clientOut, wire.StartOptions{CallTimeout: 10 * time.Second,
		Approver: func(ctx context.Context, p wire.ApprovalParams) (wire.ApprovalDecision, error) {
			return wire.ApprovalDecision{Approved: true, Scope: "once"}, nil
		}})
	_, err = s.client.Initialize(context.Background(), wire.InitializeParams{
		ProtocolVersion: wire.ProtocolVersion, WorkspaceRoot: s.ws, StoreDir: GinkgoT().TempDir(),
		Catalog: catalog.ForHost(), EffectProfile: wire.EffectProfile{Version: effects.ProfileVersion, Tools: effects.CoreProfile()},
		Mode: "auto", ApprovalProfile: "trusted-workspace", Containment: wire.ContainmentBestEffort, ToolProfile: wire.ToolProfileHost,
	})
	Expect(err).NotTo(HaveOccurred())
	_, err = s.client.ToolSet(context.Background())
	Expect(err).NotTo(HaveOccurred())
	return s
}

// referenceArgv re-executes the test binary as the built-in reference host.
func referenceArgv() []string {
	exe, err := os.Executable()
	Expect(err).NotTo(HaveOccurred())
	return []string{exe, "host", "serve", "reference"}
}

// testHostArgv re-executes the test binary as the test host.
func testHostArgv() []string {
	exe, err := os.Executable()
	Expect(err).NotTo(HaveOccurred())
	return []string{exe, testHostArg}
}

func (s *session) execute(model string, args map[string]any) (port.ToolResult, error) {
	b, err := json.Marshal(args)
	Expect(err).NotTo(HaveOccurred())
	return s.client.Execute(context.Background(), wire.ExecuteParams{
		CallID: "call-" + model, ModelName: model, Arguments: b, IdempotencyKey: "key-" + model, TimeoutMs: 10000,
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

const absent = "<absent>"
