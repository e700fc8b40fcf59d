package mutants_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/hosts/hosttest"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/hostproc"
	"github.com/galaxy-stack/conform/internal/suite"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// TestMain lets the test binary act as the host process (`host serve
// reference [--mutant NAME]`) and as the containment probe helper, as the
// conform binary does.
func TestMain(m *testing.M) { suite.Main(m, builtin.MaybeServeTest) }

func TestMutants(t *testing.T) {
	suite.Run(t, "mutants")
}

// setup is what both hosts of a comparison start from: the same files,
// the same initialize params and the same approval answers.
type setup struct {
	files  map[string]string
	params func(*wire.InitializeParams)
	// prepare runs on the session's directory before the host starts;
	// the workspace is dir/workspace.
	prepare func(dir string)
	// deny makes the harness deny every approval request; otherwise it
	// grants every one.
	deny bool
	// approver "absent" answers no approval request (method not found);
	// "silent" never answers one, so the host's approval timeout expires.
	approver string
	// onApproval, if set, runs on the host's workspace each time the host
	// asks for approval, before the answer.
	onApproval func(ws string)
	// passEnv names variables of the test process the host inherits.
	passEnv []string
}

// host is one host process under test with its own directories.
type host struct {
	mutant        string // "" for the reference host
	dir, ws, st   string
	client        *hostproc.Client
	init          wire.InitializeResult
	su            setup
	mu            sync.Mutex
	approvalAsked int
	approvals     []wire.ApprovalParams
	// received are the lines the host wrote, in order.
	received [][]byte
}

var callN atomic.Int64

// both starts the reference host and the mutant on identical fresh
// directories, concurrently.
func both(mutant string, su setup) (ref, mut *host) {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer GinkgoRecover(); defer wg.Done(); ref = launch("", su) }()
	go func() { defer GinkgoRecover(); defer wg.Done(); mut = launch(mutant, su) }()
	wg.Wait()
	Expect(ref).NotTo(BeNil())
	Expect(mut).NotTo(BeNil())
	return ref, mut
}

// baseParams is initialize's request of a comparison: no spec here needs
// a containment backend, and forbidding them keeps initialize from
// waiting for the probe.
func baseParams(ws, store string) wire.InitializeParams {
	p := hosttest.InitializeParams(ws, store)
	p.ForbidContainmentBackends = true
	return p
}

// launch prepares fresh directories and starts one host on them.
func launch(mutant string, su setup) *host {
	dir := GinkgoT().TempDir()
	h := &host{mutant: mutant, dir: dir, ws: filepath.Join(dir, "workspace"), st: filepath.Join(dir, "store"), su: su}
	Expect(os.Mkdir(h.ws, 0o755)).To(Succeed())
	suite.WriteFiles(h.ws, su.files)
	if su.prepare != nil {
		su.prepare(dir)
	}
	h.start()
	return h
}

// start starts a host process on h's directories and initializes it.
func (h *host) start() {
	exe, err := os.Executable()
	Expect(err).NotTo(HaveOccurred())
	argv := []string{exe, "host", "serve", "reference"}
	if h.mutant != "" {
		argv = append(argv, "--mutant", h.mutant)
	}
	approver := func(ctx context.Context, p wire.ApprovalParams) (wire.ApprovalDecision, error) {
		h.mu.Lock()
		h.approvalAsked++
		h.approvals = append(h.approvals, p)
		h.mu.Unlock()
		if h.su.onApproval != nil {
			h.su.onApproval(h.ws)
		}
		if h.su.approver == "silent" {
			<-ctx.Done()
			return wire.ApprovalDecision{}, ctx.Err()
		}
		return wire.ApprovalDecision{Approved: !h.su.deny, Scope: "once", Reason: "decided by the test"}, nil
	}
	if h.su.approver == "absent" {
		approver = nil
	}
	onRecv := func(line []byte) {
		h.mu.Lock()
		h.received = append(h.received, bytes.Clone(line))
		h.mu.Unlock()
	}
	c, err := hostproc.Start(argv, hostproc.StartOptions{Dir: h.dir, CallTimeout: 20 * time.Second, Approver: approver, PassEnv: h.su.passEnv, OnRecv: onRecv})
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(func() { _ = c.Close(5 * time.Second) })
	p := baseParams(h.ws, h.st)
	if h.su.params != nil {
		h.su.params(&p)
	}
	h.init, err = c.Initialize(context.Background(), p)
	Expect(err).NotTo(HaveOccurred(), "%s: %s", h, c.Stderr())
	h.client = c
}

// fresh starts another process of the same kind on h's directories, as
// a fresh-host resume does.
func (h *host) fresh() *host {
	f := &host{mutant: h.mutant, dir: h.dir, ws: h.ws, st: h.st, su: h.su}
	f.start()
	return f
}

func (h *host) String() string {
	if h.mutant == "" {
		return "reference"
	}
	return "mutant " + h.mutant
}

func (h *host) asked() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.approvalAsked
}

// params returns the execute params of one call with a fresh call ID
// and idempotency key.
func params(name string, args map[string]any) wire.ExecuteParams {
	n := callN.Add(1)
	raw, err := json.Marshal(args)
	Expect(err).NotTo(HaveOccurred())
	return wire.ExecuteParams{
		CallID: fmt.Sprintf("call-%s-%d", name, n), ModelName: name, Arguments: raw,
		IdempotencyKey: fmt.Sprintf("key-%d", n), TimeoutMs: 30000,
		Context: wire.RunContext{RunID: "run-1", TaskID: "task-1", Mode: "auto"},
	}
}

// call executes one tool call.
func (h *host) call(name string, args map[string]any) (port.ToolResult, error) {
	return h.client.Execute(context.Background(), params(name, args))
}

// send sends p, which must be answered with a result (ok or not).
func (h *host) send(p wire.ExecuteParams) port.ToolResult {
	r, err := h.client.Execute(context.Background(), p)
	Expect(err).NotTo(HaveOccurred(), "%s %s", h, p.ModelName)
	return r
}

// result executes a call that must answer with a result (ok or not).
func (h *host) result(name string, args map[string]any) port.ToolResult {
	r, err := h.call(name, args)
	Expect(err).NotTo(HaveOccurred(), "%s %s", h, name)
	return r
}

// ok executes a call that must succeed and decodes its content.
func (h *host) ok(name string, args map[string]any) (port.ToolResult, map[string]any) {
	r := h.result(name, args)
	Expect(r.OK).To(BeTrue(), "%s: %s failed: %s", h, name, r.Content)
	var content map[string]any
	Expect(json.Unmarshal([]byte(r.Content), &content)).To(Succeed())
	return r, content
}

// firstWrite executes a call that must succeed with n write effects and
// returns the first.
func (h *host) firstWrite(name string, args map[string]any, n int) port.Write {
	r, _ := h.ok(name, args)
	Expect(r.Effects.Writes).To(HaveLen(n), "%s: %s", h, name)
	return r.Effects.Writes[0]
}

// fails executes a call that must fail with code.
func (h *host) fails(name string, args map[string]any, code string) port.ToolResult {
	r := h.result(name, args)
	Expect(r.OK).To(BeFalse(), "%s: %s succeeded: %s", h, name, r.Content)
	Expect(r.Error.Code).To(Equal(code), "%s: %s", h, r.Content)
	return r
}

// run runs a shell command with run_command and returns its output.
func (h *host) run(args map[string]any) map[string]any {
	_, out := h.ok("run_command", args)
	return out
}

func (h *host) path(rel string) string { return filepath.Join(h.ws, filepath.FromSlash(rel)) }

func (h *host) read(rel string) string {
	b, err := os.ReadFile(h.path(rel))
	Expect(err).NotTo(HaveOccurred())
	return string(b)
}

func (h *host) exists(rel string) bool {
	_, err := os.Lstat(h.path(rel))
	return err == nil
}

func create(path, content string) map[string]any {
	return map[string]any{"path": path, "content": content, "precondition": map[string]any{"kind": "must_not_exist"}}
}

// posixOnly skips specs that script /bin/sh.
func posixOnly() {
	if runtime.GOOS == "windows" {
		Skip("this spec scripts /bin/sh; the Windows cmd dialect has its own probes")
	}
}

// outsideLink makes dir/outside/secret.txt and a symlink workspace/link
// pointing at dir/outside.
func outsideLink(dir string) {
	Expect(os.MkdirAll(filepath.Join(dir, "outside"), 0o755)).To(Succeed())
	Expect(os.WriteFile(filepath.Join(dir, "outside", "secret.txt"), []byte("secret\n"), 0o644)).To(Succeed())
	if err := os.Symlink(filepath.Join(dir, "outside"), filepath.Join(dir, "workspace", "link")); err != nil {
		Skip("symlinks are not available here: " + err.Error())
	}
}

// stats returns the file info of a workspace path.
func (h *host) stat(rel string) os.FileInfo {
	fi, err := os.Stat(h.path(rel))
	Expect(err).NotTo(HaveOccurred())
	return fi
}
