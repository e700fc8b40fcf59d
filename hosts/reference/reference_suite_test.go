package reference_test

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/hosts/hosttest"
	"github.com/galaxy-stack/conform/hosts/reference"
	"github.com/galaxy-stack/conform/hosts/reference/command"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/hostproc"
	"github.com/galaxy-stack/conform/hosts/wire/jsonrpc"
	"github.com/galaxy-stack/conform/hosts/wire/kit"
	"github.com/galaxy-stack/conform/internal/suite"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// TestMain lets the test binary act as the host process (`host serve
// reference`) and as the containment probe helper, as the conform binary
// does.
func TestMain(m *testing.M) { suite.Main(m, builtin.MaybeServeTest) }

func TestReference(t *testing.T) {
	suite.Run(t, "reference")
}

// prober is shared by the in-process hosts of this test process.
var prober = command.NewProber(command.ProberConfig{HelperArgs: reference.ProbeHelperArgs})

// env is one host session under test: a workspace, a store directory and
// a client.
type env struct {
	ws, store string
	client    *hostproc.Client
	init      wire.InitializeResult
	runID     string
}

// setup configures a session before it starts.
type setup struct {
	opts     reference.Options
	params   func(*wire.InitializeParams)
	approver func(ctx context.Context, p wire.ApprovalParams) (wire.ApprovalDecision, error)
	files    map[string]string
}

// baseParams is initialize's request of a session on ws and store.
func baseParams(ws, store string) wire.InitializeParams { return hosttest.InitializeParams(ws, store) }

// start serves an in-process reference host over pipes and initializes it.
func start(su setup) *env {
	dir := GinkgoT().TempDir()
	e := &env{ws: filepath.Join(dir, "workspace"), store: filepath.Join(dir, "store"), runID: "run-1"}
	Expect(os.Mkdir(e.ws, 0o755)).To(Succeed())
	suite.WriteFiles(e.ws, su.files)
	if su.opts.Prober == nil {
		su.opts.Prober = prober
	}
	e.client = connect(reference.NewWith(su.opts), su.approver)
	p := baseParams(e.ws, e.store)
	if su.params != nil {
		su.params(&p)
	}
	var err error
	e.init, err = e.client.Initialize(context.Background(), p)
	Expect(err).NotTo(HaveOccurred())
	return e
}

func connect(h jsonrpc.Handler, approver func(ctx context.Context, p wire.ApprovalParams) (wire.ApprovalDecision, error)) *hostproc.Client {
	cr, hw := io.Pipe()
	hr, cw := io.Pipe()
	go func() {
		_ = kit.Serve(context.Background(), hr, hw, h)
		hw.Close()
	}()
	c := hostproc.Connect(cr, cw, hostproc.StartOptions{Approver: approver, CallTimeout: 20 * time.Second})
	DeferCleanup(func() { _ = c.Close(5 * time.Second) })
	return c
}

var callN int

// call executes one tool call and returns the envelope.
func (e *env) call(name string, args map[string]any) (port.ToolResult, error) {
	callN++
	raw, err := json.Marshal(args)
	Expect(err).NotTo(HaveOccurred())
	return e.client.Execute(context.Background(), wire.ExecuteParams{
		CallID: "call-" + name + "-" + itoa(callN), ModelName: name, Arguments: raw,
		IdempotencyKey: "key-" + itoa(callN), TimeoutMs: 30000,
		Context: wire.RunContext{RunID: e.runID, TaskID: "task-1", Mode: "auto"},
	})
}

// ok executes a call that must succeed and decodes its content.
func (e *env) ok(name string, args map[string]any) (port.ToolResult, map[string]any) {
	r, err := e.call(name, args)
	Expect(err).NotTo(HaveOccurred())
	Expect(r.OK).To(BeTrue(), "%s failed: %s", name, r.Content)
	var content map[string]any
	Expect(json.Unmarshal([]byte(r.Content), &content)).To(Succeed())
	return r, content
}

// fails executes a call that must fail with code and no side effect
// evidence.
func (e *env) fails(name string, args map[string]any, code string) port.ToolResult {
	r, err := e.call(name, args)
	Expect(err).NotTo(HaveOccurred())
	Expect(r.OK).To(BeFalse(), "%s succeeded: %s", name, r.Content)
	Expect(r.Error.Code).To(Equal(code), r.Content)
	return r
}

func itoa(n int) string { return strconv.Itoa(n) }

func (e *env) exists(rel string) bool {
	_, err := os.Lstat(filepath.Join(e.ws, filepath.FromSlash(rel)))
	return err == nil
}
