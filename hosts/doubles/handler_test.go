package doubles_test

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/doubles"
	"github.com/galaxy-stack/conform/hosts/hosttest"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/hostproc"
	"github.com/galaxy-stack/conform/hosts/wire/kit"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// innerHost stands in for the reference host: it backs workspace.read and
// records what it is asked.
type innerHost struct {
	mu      sync.Mutex
	methods []string
}

func (i *innerHost) Handle(ctx context.Context, method string, params json.RawMessage) (any, error) {
	i.mu.Lock()
	i.methods = append(i.methods, method)
	i.mu.Unlock()
	switch method {
	case wire.MethodInitialize:
		return wire.InitializeResult{ProtocolVersion: wire.ProtocolVersion, Host: wire.HostInfo{Name: "inner", Version: "1"},
			Tools: []string{"workspace.read"}}, nil
	case wire.MethodExecute:
		return port.ToolResult{OK: true, CanonicalToolID: "workspace.read", Content: "{}", Summary: "inner", Trust: "workspace"}, nil
	case wire.MethodShutdown:
		return struct{}{}, nil
	}
	return nil, wire.ErrMethodNotFound
}

func initParams(profile string) wire.InitializeParams {
	p := hosttest.InitializeParams("/ws", "/store")
	p.ApprovalProfile, p.ToolProfile = profile, wire.ToolProfileFullContract
	return p
}

func raw(v any) json.RawMessage {
	b, err := json.Marshal(v)
	Expect(err).NotTo(HaveOccurred())
	return b
}

var _ = Describe("the doubles host", func() {
	var (
		inner *innerHost
		h     *doubles.Handler
		seq   int
	)
	handle := func(method string, params any, out any) error {
		res, err := h.Handle(context.Background(), method, raw(params))
		if err == nil && out != nil {
			Expect(json.Unmarshal(raw(res), out)).To(Succeed())
		}
		return err
	}
	exec := func(model string, args any) port.ToolResult {
		seq++
		var r port.ToolResult
		Expect(handle(wire.MethodExecute, wire.ExecuteParams{
			CallID: "call-" + string(rune('0'+seq)), ModelName: model, Arguments: raw(args),
			IdempotencyKey: "key-" + string(rune('0'+seq)), TimeoutMs: 30000,
			Context: wire.RunContext{RunID: "run-1", TaskID: "task-1", Mode: "auto"},
		}, &r)).To(Succeed())
		return r
	}
	activeNames := func() []string {
		var set port.ToolSet
		Expect(handle(wire.MethodToolsList, struct{}{}, &set)).To(Succeed())
		Expect(effects.CheckToolSet(set)).Error().NotTo(HaveOccurred())
		var names []string
		for n := range set.CanonicalToolIDs {
			names = append(names, n)
		}
		return names
	}

	BeforeEach(func() {
		inner, seq = &innerHost{}, 0
		h = doubles.NewHandler(inner)
		var answer wire.InitializeResult
		Expect(handle(wire.MethodInitialize, initParams("balanced"), &answer)).To(Succeed())
		Expect(answer.Doubles).To(Equal(doubles.IDs()))
		Expect(answer.Tools).To(ContainElements("workspace.read", "catalog.search", "user.ask"))
		Expect(answer.Host.Name).To(Equal("inner"))
	})

	It("offers the bootstrap tools and activates lazy doubles through search_tools", func() {
		Expect(activeNames()).To(ConsistOf("read_file", "search_tools", "fetch_url"))
		r := exec("search_tools", map[string]any{"query": "artifact", "limit": 5})
		Expect(r.OK).To(BeTrue(), r.Content)
		Expect(r.Summary).To(MatchRegexp(`^Activated \d+ matching tool\(s\)\.$`))
		Expect(r.Effects.StateVersion).To(HavePrefix("sha256:"))
		Expect(activeNames()).To(ContainElements("create_artifact", "read_artifact", "list_artifacts"))
	})

	It("runs an active double and forwards other tools to the inner host", func() {
		exec("search_tools", map[string]any{"query": "artifact"})
		r := exec("create_artifact", map[string]any{"name": "a", "content": "x", "mimeType": "text/plain"})
		Expect(r.OK).To(BeTrue(), r.Content)
		Expect(r.CanonicalToolID).To(Equal("artifact.create"))
		Expect(r.Effects.Approval).To(Equal("not_required"))
		Expect(inner.methods).To(Equal([]string{"initialize"}))
		Expect(exec("read_file", map[string]any{"path": "a"}).Summary).To(Equal("inner"))
		Expect(inner.methods).To(Equal([]string{"initialize", "tool/execute"}))
	})

	It("refuses inactive doubles and invalid arguments before dispatch", func() {
		r := exec("create_artifact", map[string]any{"name": "a", "content": "x", "mimeType": "text/plain"})
		Expect(r.Error.Code).To(Equal("UNKNOWN_TOOL"))
		Expect(r.CanonicalToolID).To(Equal("create_artifact"))
		Expect(r.Content).To(ContainSubstring(`"toolCallId":"call-1"`))
		r = exec("fetch_url", map[string]any{"url": "ftp://example.com"})
		Expect(r.Error.Code).To(Equal("INVALID_TOOL_ARGUMENTS"))
		r = exec("fetch_url", map[string]any{"url": "https://example.com", "extra": true})
		Expect(r.Error.Code).To(Equal("INVALID_TOOL_ARGUMENTS"))
	})

	It("replays a with_key tool for a repeated idempotency key", func() {
		exec("search_tools", map[string]any{"query": "artifact"})
		args := raw(map[string]any{"name": "a", "content": "x", "mimeType": "text/plain"})
		run := func(key string) port.ToolResult {
			var r port.ToolResult
			Expect(handle(wire.MethodExecute, wire.ExecuteParams{CallID: "c", ModelName: "create_artifact", Arguments: args,
				IdempotencyKey: key, TimeoutMs: 1000, Context: wire.RunContext{RunID: "r", TaskID: "t", Mode: "auto"}}, &r)).To(Succeed())
			return r
		}
		first := run("same")
		Expect(run("same")).To(Equal(first))
		Expect(run("other").Content).To(ContainSubstring("artifact-0002"))
	})

	It("denies a call that needs approval when the harness cannot be asked", func() {
		exec("search_tools", map[string]any{"query": "session", "category": "command"})
		r := exec("manage_session", map[string]any{"action": "list"})
		Expect(r.OK).To(BeFalse())
		Expect(r.Error.Code).To(HavePrefix("DENY_"))
		Expect(r.Effects).To(Equal(&port.Effects{Approval: "denied"}))
		Expect(effects.CheckEnvelope(r)).To(Succeed())
	})
})

var _ = Describe("the doubles host over the wire", func() {
	It("asks the harness for approval and reports the grant", func() {
		hr, cw := io.Pipe()
		cr, hw := io.Pipe()
		go func() { _ = kit.Serve(context.Background(), hr, hw, doubles.NewHandler(&innerHost{})) }()
		asked := make(chan wire.ApprovalParams, 1)
		c := hostproc.Connect(cr, cw, hostproc.StartOptions{Approver: func(ctx context.Context, p wire.ApprovalParams) (wire.ApprovalDecision, error) {
			asked <- p
			return wire.ApprovalDecision{Approved: true, Scope: "once"}, nil
		}})
		defer c.Close(time.Second)
		ctx := context.Background()
		init, err := c.Initialize(ctx, initParams("balanced"))
		Expect(err).NotTo(HaveOccurred())
		Expect(init.Doubles).To(HaveLen(9))
		ec := wire.RunContext{RunID: "run-1", TaskID: "task-1", Mode: "auto"}
		_, err = c.Execute(ctx, wire.ExecuteParams{CallID: "c1", ModelName: "search_tools", Arguments: raw(map[string]any{"query": "session"}),
			IdempotencyKey: "k1", TimeoutMs: 5000, Context: ec})
		Expect(err).NotTo(HaveOccurred())
		r, err := c.Execute(ctx, wire.ExecuteParams{CallID: "c2", ModelName: "manage_session",
			Arguments: raw(map[string]any{"action": "start", "command": "npm run dev"}), IdempotencyKey: "k2", TimeoutMs: 5000, Context: ec})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.OK).To(BeTrue(), r.Content)
		Expect(r.Effects.Approval).To(Equal("granted"))
		Expect(<-asked).To(HaveField("CanonicalToolID", "command.session"))
	})
})

var _ = Describe("the doubles host's tool set on resume", func() {
	It("restores a checkpointed set with lazily activated doubles and refuses a wrong hash", func() {
		first := doubles.NewHandler(&innerHost{})
		ctx := context.Background()
		_, err := first.Handle(ctx, wire.MethodInitialize, raw(initParams("balanced")))
		Expect(err).NotTo(HaveOccurred())
		_, err = first.Handle(ctx, wire.MethodExecute, raw(wire.ExecuteParams{CallID: "c", ModelName: "search_tools",
			Arguments: raw(map[string]any{"query": "ask user"}), IdempotencyKey: "k", TimeoutMs: 1000,
			Context: wire.RunContext{RunID: "r", TaskID: "t", Mode: "auto"}}))
		Expect(err).NotTo(HaveOccurred())
		res, err := first.Handle(ctx, wire.MethodToolsList, raw(struct{}{}))
		Expect(err).NotTo(HaveOccurred())
		saved := res.(port.ToolSet)
		Expect(saved.CanonicalToolIDs).To(HaveKey("ask_user"))
		var names []string
		for n := range saved.CanonicalToolIDs {
			names = append(names, n)
		}

		fresh := doubles.NewHandler(&innerHost{})
		_, err = fresh.Handle(ctx, wire.MethodInitialize, raw(initParams("balanced")))
		Expect(err).NotTo(HaveOccurred())
		_, err = fresh.Handle(ctx, wire.MethodToolsRestore, raw(wire.RestoreParams{Names: names, SnapshotHash: "sha256:" + strings.Repeat("0", 64)}))
		pe, ok := wire.AsPortError(err)
		Expect(ok).To(BeTrue())
		Expect(pe.Message).To(HavePrefix("Checkpoint tool snapshot mismatch"))
		res, err = fresh.Handle(ctx, wire.MethodToolsRestore, raw(wire.RestoreParams{Names: names, SnapshotHash: saved.SnapshotHash}))
		Expect(err).NotTo(HaveOccurred())
		Expect(res.(port.ToolSet).SnapshotHash).To(Equal(saved.SnapshotHash))
		_, err = fresh.Handle(ctx, wire.MethodToolsRestore, raw(wire.RestoreParams{Names: []string{"no_such_tool"}, SnapshotHash: saved.SnapshotHash}))
		pe, _ = wire.AsPortError(err)
		Expect(pe.Message).To(Equal("Checkpoint references unavailable tool 'no_such_tool'."))
	})
})
