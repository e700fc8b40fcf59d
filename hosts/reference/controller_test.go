package reference_test

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/prompt"
	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/core/run/runtest"
	"github.com/galaxy-stack/conform/doubles/model"
	"github.com/galaxy-stack/conform/doubles/store"
	"github.com/galaxy-stack/conform/hosts/reference"
	"github.com/galaxy-stack/conform/hosts/reference/command"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/hostproc"
	"github.com/galaxy-stack/conform/hosts/wire/kit"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The run controller of core/run against the reference host, served
// in-process: a spec of the two together lives here, above both, so that
// core's tests import nothing above core.

// refHost is the reference host served in-process over pipes: the tool
// executor and workspace verifier of a run.
type refHost struct {
	client *hostproc.Client
	ws     string
}

// startRefHost serves a reference host on a fresh workspace seeded with
// files. Its containment probe finds no sandbox (an empty search path), so
// nothing is re-executed.
func startRefHost(files map[string]string) *refHost {
	dir := GinkgoT().TempDir()
	ws, st := filepath.Join(dir, "workspace"), filepath.Join(dir, "store")
	Expect(os.Mkdir(ws, 0o755)).To(Succeed())
	Expect(os.Mkdir(st, 0o755)).To(Succeed())
	for p, content := range files {
		Expect(os.WriteFile(filepath.Join(ws, filepath.FromSlash(p)), []byte(content), 0o644)).To(Succeed())
	}
	h := reference.NewWith(reference.Options{Prober: command.NewProber(command.ProberConfig{Path: GinkgoT().TempDir(), TempDir: dir})})
	cr, hw := io.Pipe()
	hr, cw := io.Pipe()
	go func() {
		_ = kit.Serve(context.Background(), hr, hw, h)
		hw.Close()
	}()
	c := hostproc.Connect(cr, cw, hostproc.StartOptions{CallTimeout: 20 * time.Second})
	DeferCleanup(func() { _ = c.Close(5 * time.Second) })
	_, err := c.Initialize(context.Background(), baseParams(ws, st))
	Expect(err).NotTo(HaveOccurred())
	return &refHost{client: c, ws: ws}
}

func (h *refHost) ToolSet(ctx context.Context) (port.ToolSet, error) { return h.client.ToolSet(ctx) }

func (h *refHost) Execute(ctx context.Context, call port.ToolCall, tc port.ToolContext) (port.ToolResult, error) {
	args, err := json.Marshal(call.Arguments)
	if err != nil {
		return port.ToolResult{}, err
	}
	return h.client.Execute(ctx, wire.ExecuteParams{CallID: call.ToolCallID, ModelName: call.Name, Arguments: args,
		IdempotencyKey: tc.IdempotencyKey, TimeoutMs: tc.TimeoutMs, Context: wire.RunContext{RunID: tc.RunID, TaskID: tc.TaskID, Mode: tc.Mode}})
}

func (h *refHost) Capture(ctx context.Context, in run.WorkspaceInput) (port.WorkspaceState, error) {
	return h.client.CaptureFingerprint(ctx, in.ActiveFiles, in.DirtyStateSummary)
}

func (h *refHost) Verify(ctx context.Context, st port.WorkspaceState) (port.Verification, error) {
	fp, matches, err := h.client.VerifyFingerprint(ctx, st)
	return port.Verification{CurrentFingerprint: fp, Matches: matches}, err
}

var _ = Describe("the controller against the in-process reference host", func() {
	It("blocks the identical stale edit without changing the file or its inode (seed fixture stale-edit-loop)", func() {
		h := startRefHost(map[string]string{"safe.txt": "safe\n"})
		before, err := os.Stat(filepath.Join(h.ws, "safe.txt"))
		Expect(err).NotTo(HaveOccurred())
		stale := map[string]any{"path": "safe.txt", "oldText": "safe", "newText": "unsafe",
			"precondition": map[string]any{"kind": "matches_sha256", "contentSha256": "0000000000000000000000000000000000000000000000000000000000000000"}}
		var rounds []model.Round
		for i := range 5 {
			rounds = append(rounds, model.CallRound(model.ToolCall{ToolCallID: "stale-" + strconv.Itoa(i+1), ToolName: "edit_file", Arguments: stale}))
		}
		m := model.NewScripted(rounds)
		st := store.NewRunStore()
		r, err := run.Run(context.Background(), run.Deps{Model: m, Tools: h, Verifier: h, Store: st}, run.Request{Request: prompt.Request{
			Goal: "Never corrupt safe.txt when an edit is based on a stale content hash.", TaskID: "task-1", WorkspaceRoot: h.ws,
			Prompt: controllerConfig()}})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Status).To(Equal(run.StatusPaused), r.ErrorMessage)
		Expect(st.CheckpointReasons()).To(Equal([]string{"pause"}))
		Expect(m.Consumed()).To(BeTrue())
		var dispatched []string
		for _, c := range r.Calls {
			if c.Dispatched {
				dispatched = append(dispatched, c.Call.Name)
			}
			Expect(c.Result.CanonicalToolID).To(Equal("workspace.edit"))
		}
		Expect(dispatched).To(Equal([]string{"edit_file", "edit_file"}))
		Expect(runtest.ResultCodes(r.Calls)).To(Equal([]string{"PRECONDITION_FAILED", "PRECONDITION_FAILED", "NO_PROGRESS", "NO_PROGRESS", "NO_PROGRESS"}))
		after, err := os.Stat(filepath.Join(h.ws, "safe.txt"))
		Expect(err).NotTo(HaveOccurred())
		Expect(os.SameFile(before, after)).To(BeTrue(), "the file keeps its inode")
		Expect(os.ReadFile(filepath.Join(h.ws, "safe.txt"))).To(Equal([]byte("safe\n")))
	})
})

// controllerConfig is the prompt configuration of the controller specs.
func controllerConfig() prompt.Configuration {
	return prompt.Configuration{ApprovalProfile: "balanced", Complexity: "standard", NetworkAccess: "denied", WriteAccess: "allowed",
		HostEnvironment: &prompt.HostEnvironment{Architecture: "arm64", OperatingSystem: "darwin", Command: prompt.CommandEnvironment{
			ArgumentsPrefix: []string{"-c"}, CommandMode: "shell_string", Executable: "/bin/zsh", PathStyle: "posix", Shell: "zsh", Stdin: "closed"}}}
}
