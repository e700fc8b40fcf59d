package reference_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"time"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/reference"
	"github.com/galaxy-stack/conform/hosts/reference/command"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/hostproc"
	"github.com/galaxy-stack/conform/internal/suite"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func portCode(err error) string {
	pe, ok := wire.AsPortError(err)
	Expect(ok).To(BeTrue(), "want a port failure, got %v", err)
	return pe.Code
}

var _ = Describe("initialize", func() {
	It("answers what the host is, the tools it backs, the environment it spawns from and its containment", func() {
		e := start(setup{})
		Expect(e.init.ProtocolVersion).To(Equal("1"))
		Expect(e.init.Host).To(Equal(wire.HostInfo{Name: reference.Name, Version: reference.Version}))
		Expect(e.init.Tools).To(ContainElements("workspace.read", "workspace.write", "command.run", "git.exec", "task.checkpoint", "catalog.search", "project.validate"))
		Expect(e.init.Capabilities).To(Equal(wire.HostCapabilities{Store: true, Trace: true, Spill: true, Fingerprint: true}))
		env, err := command.DetectEnvironment()
		Expect(err).NotTo(HaveOccurred())
		Expect(e.init.CommandEnvironment.Command.Executable).To(Equal(env.Command.Executable))
		Expect(e.init.CommandEnvironment.Command.ArgumentsPrefix).To(Equal(env.Command.ArgumentsPrefix))
		Expect(e.init.Containment).NotTo(BeNil())
		Expect(e.init.Containment.Verified).To(Equal(e.init.Containment.Active))
	})

	It("reports containment unavailable when the harness forbids every backend", func() {
		e := start(setup{params: func(p *wire.InitializeParams) { p.ForbidContainmentBackends = true }})
		Expect(e.init.Containment.Verified).To(BeFalse())
		Expect(e.init.Containment.State).To(Equal("unavailable"))
	})

	It("refuses a store directory inside the workspace", func() {
		dir := GinkgoT().TempDir()
		c := connect(reference.NewWith(reference.Options{Prober: prober}), nil)
		p := baseParams(dir, filepath.Join(dir, "store"))
		_, err := c.Initialize(context.Background(), p)
		Expect(errors.Is(err, wire.ErrInvalidParams)).To(BeTrue(), "%v", err)
	})

	It("answers every other method with ErrNotInitialized before initialize", func() {
		c := connect(reference.NewWith(reference.Options{Prober: prober}), nil)
		_, err := c.ToolSet(context.Background())
		Expect(errors.Is(err, wire.ErrNotInitialized)).To(BeTrue(), "%v", err)
	})

	It("rejects params that break the published schema, naming the pointer", func() {
		c := connect(reference.NewWith(reference.Options{Prober: prober}), nil)
		err := c.Call(context.Background(), wire.MethodInitialize, map[string]any{"protocolVersion": "1"}, 5*time.Second, nil)
		Expect(errors.Is(err, wire.ErrInvalidParams)).To(BeTrue())
		Expect(err.Error()).To(ContainSubstring("at /params/"))
	})
})

var _ = Describe("tools/list and tools/restore", func() {
	It("publish the active set, route model names and restore a checkpointed set", func() {
		e := start(setup{})
		ts, err := e.client.ToolSet(context.Background())
		Expect(err).NotTo(HaveOccurred())
		Expect(ts.CanonicalToolIDs).To(HaveKeyWithValue("write_file", "workspace.write"))
		Expect(ts.EffectCapabilities).To(HaveKey("workspace.write"))
		Expect(ts.SnapshotHash).To(HavePrefix("sha256:"))
		var names []string
		for n := range ts.CanonicalToolIDs {
			names = append(names, n)
		}
		again, err := e.client.RestoreToolSet(context.Background(), wire.RestoreParams{Names: names, SnapshotHash: ts.SnapshotHash})
		Expect(err).NotTo(HaveOccurred())
		Expect(again.SnapshotHash).To(Equal(ts.SnapshotHash))

		_, err = e.client.RestoreToolSet(context.Background(), wire.RestoreParams{Names: names, SnapshotHash: "sha256:other"})
		Expect(portCode(err)).To(Equal("CONFLICT"))
		_, err = e.client.RestoreToolSet(context.Background(), wire.RestoreParams{Names: []string{"no_such_tool"}, SnapshotHash: ts.SnapshotHash})
		Expect(portCode(err)).To(Equal("CONFLICT"))
		Expect(err.Error()).To(ContainSubstring("Checkpoint references unavailable tool 'no_such_tool'."))
	})

	It("filter the set by mode: a write tool is not active in review_only", func() {
		e := start(setup{params: func(p *wire.InitializeParams) { p.Mode = "review_only" }})
		ts, err := e.client.ToolSet(context.Background())
		Expect(err).NotTo(HaveOccurred())
		Expect(ts.CanonicalToolIDs).NotTo(HaveKey("write_file"))
		Expect(ts.CanonicalToolIDs).To(HaveKey("read_file"))
		e.fails("write_file", map[string]any{"path": "a.txt", "content": "x", "precondition": map[string]any{"kind": "must_not_exist"}}, "UNKNOWN_TOOL")
		Expect(e.exists("a.txt")).To(BeFalse())
	})
})

var _ = Describe("workspace/fingerprint", func() {
	It("captures and verifies, and a changed workspace no longer matches", func() {
		e := start(setup{files: map[string]string{"a.txt": "one\n"}})
		st, err := e.client.CaptureFingerprint(context.Background(), []wire.ActiveFile{{Path: "a.txt", Kind: "file"}}, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(st.StateFingerprint).To(HavePrefix("sha256:"))
		cur, ok, err := e.client.VerifyFingerprint(context.Background(), st)
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeTrue())
		Expect(cur).To(Equal(st.StateFingerprint))
		suite.WriteFiles(e.ws, map[string]string{"a.txt": "two\n"})
		_, ok, err = e.client.VerifyFingerprint(context.Background(), wire.WorkspaceState{ActiveFiles: []wire.ActiveFile{}, StateFingerprint: st.StateFingerprint})
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeFalse())
	})
})

func traceEvent(run, exec string, seq int64) wire.TraceEvent {
	return wire.TraceEvent{EventID: run + ":" + exec + ":" + itoa(int(seq)), ExecutionID: exec, Kind: port.TraceToolCall,
		Payload: json.RawMessage(`{"toolCallId":"c1"}`), RunID: run, Sequence: seq, TaskID: "task-1", Timestamp: "1970-01-01T00:00:00.000Z"}
}

var _ = Describe("stores and trace", func() {
	It("store documents and trace events durably, visible to a fresh host process on the same storeDir", func() {
		e := start(setup{})
		ctx := context.Background()
		for i, reason := range []string{"pause", "final"} {
			r, err := e.client.StorePut(ctx, wire.StorePutParams{RunID: "run-1", Kind: wire.KindCheckpoint,
				Document: json.RawMessage(`{"runId":"run-1","contentHash":"sha256:c` + itoa(i) + `","reason":"` + reason + `"}`)})
			Expect(err).NotTo(HaveOccurred())
			Expect(r.Sequence).To(Equal(i + 1))
			Expect(r.ArtifactRef).To(HavePrefix("galaxy-checkpoint://"))
		}
		Expect(e.client.TraceAppend(ctx, traceEvent("run-1", "ex-1", 1))).To(Succeed())
		Expect(e.client.TraceAppend(ctx, traceEvent("run-1", "ex-1", 2))).To(Succeed())
		err := e.client.TraceAppend(ctx, traceEvent("run-1", "ex-1", 2))
		Expect(portCode(err)).To(Equal("CONFLICT"))
		n, err := e.client.TraceFlush(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(n).To(Equal(2))
		e.ok("update_checkpoint", map[string]any{"action": "update", "goal": "Ship it", "progress": "wrote a.txt", "nextStep": "validate"})

		By("a fresh host process on the same directories")
		exe, err := os.Executable()
		Expect(err).NotTo(HaveOccurred())
		fresh, err := hostproc.Start([]string{exe, "host", "serve", "reference"}, hostproc.StartOptions{Dir: e.ws, CallTimeout: 20 * time.Second})
		Expect(err).NotTo(HaveOccurred())
		defer fresh.Close(5 * time.Second)
		_, err = fresh.Initialize(ctx, baseParams(e.ws, e.store))
		Expect(err).NotTo(HaveOccurred())
		doc, err := fresh.StoreGet(ctx, wire.StoreGetParams{RunID: "run-1", Kind: wire.KindCheckpoint})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(doc)).To(ContainSubstring(`"reason":"final"`))
		list, err := fresh.StoreList(ctx, wire.StoreListParams{RunID: "run-1", Kind: wire.KindCheckpoint})
		Expect(err).NotTo(HaveOccurred())
		Expect(list).To(HaveLen(2))
		none, err := fresh.StoreGet(ctx, wire.StoreGetParams{RunID: "run-2", Kind: wire.KindFinalReport})
		Expect(err).NotTo(HaveOccurred())
		Expect(none).To(BeNil())
		evs, err := fresh.TraceList(ctx, "run-1")
		Expect(err).NotTo(HaveOccurred())
		Expect(evs).To(HaveLen(2))
		err = fresh.TraceAppend(ctx, traceEvent("run-1", "ex-1", 2))
		Expect(portCode(err)).To(Equal("CONFLICT"), "sequence order holds across processes")

		raw, _ := json.Marshal(map[string]any{"action": "read"})
		r, err := fresh.Execute(ctx, wire.ExecuteParams{CallID: "fresh-read", ModelName: "update_checkpoint", Arguments: raw, TimeoutMs: 30000,
			Context: wire.RunContext{RunID: "run-1", TaskID: "task-1", Mode: "auto"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.OK).To(BeTrue(), r.Content)
		Expect(r.Content).To(And(ContainSubstring(`"goal":"Ship it"`), ContainSubstring(`"progress":"wrote a.txt"`)))
	})

	It("loses nothing it acknowledged, unlike a store that acknowledges without persisting", func() {
		for _, broken := range []bool{false, true} {
			e := start(setup{opts: reference.Options{Faults: reference.Faults{StoreAckWithoutPersist: broken}}})
			_, err := e.client.StorePut(context.Background(), wire.StorePutParams{RunID: "r", Kind: wire.KindFinalReport, Document: json.RawMessage(`{"runId":"r"}`)})
			Expect(err).NotTo(HaveOccurred())
			fresh := connect(reference.NewWith(reference.Options{Prober: prober}), nil)
			_, err = fresh.Initialize(context.Background(), baseParams(e.ws, e.store))
			Expect(err).NotTo(HaveOccurred())
			doc, err := fresh.StoreGet(context.Background(), wire.StoreGetParams{RunID: "r", Kind: wire.KindFinalReport})
			Expect(err).NotTo(HaveOccurred())
			Expect(doc == nil).To(Equal(broken))
		}
	})
})
