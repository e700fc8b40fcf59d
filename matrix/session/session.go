// Package session runs one scenario against one host process: a fresh
// workspace and store directory, the host started and initialized over the
// host protocol, the core runtime driving the scripted model double and the
// host's tools, and the harness's own workspace snapshots before and after.
//
// Run is the whole session for the matrix's small scenarios. StartHost is
// the part other runners build on (the lab's fixture runs): it starts and
// initializes one host process and gives the core's ports over it — the tool
// executor (which also restores checkpointed tool sets), and, when the host
// offers them, the run store over store/*, the trace over trace/* and the
// workspace evidence verifier over workspace/fingerprint — and it answers
// the host's approval requests from the scenario's decisions.
package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/prompt"
	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/doubles/model"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/matrix/snapshot"
)

// Scenario is what one session runs.
type Scenario struct {
	Name   string
	Task   string
	Mode   string            // auto when empty
	Files  map[string]string // workspace-relative slash path → content
	Rounds []model.Round
}

// Outcome is everything a session observed.
type Outcome struct {
	Host          wire.InitializeResult
	Result        run.Result
	Before, After snapshot.Snapshot
	ModelConsumed bool
	// HostError is the first way the host broke the protocol, if it did.
	HostError error
	Stderr    string
}

// Changes lists what changed in the workspace according to the harness's
// own snapshots.
func (o *Outcome) Changes() []snapshot.Change { return snapshot.Diff(o.Before, o.After) }

// ToolSequence lists the model-facing names of the dispatched calls.
func (o *Outcome) ToolSequence() []string {
	var out []string
	for _, c := range o.Result.Calls {
		if c.Dispatched {
			out = append(out, c.Call.Name)
		}
	}
	return out
}

// Run runs sc against the host started by argv. A host that cannot be
// started, or that breaks the protocol before the run starts, is returned
// as an error; a protocol break during the run is recorded in
// Outcome.HostError and ends the run.
func Run(ctx context.Context, argv []string, sc Scenario) (*Outcome, error) {
	dir, err := os.MkdirTemp("", "conform-session-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	ws, store := filepath.Join(dir, "workspace"), filepath.Join(dir, "store")
	for _, d := range []string{ws, store} {
		if err := os.Mkdir(d, 0o755); err != nil {
			return nil, err
		}
	}
	if err := writeFiles(ws, sc.Files); err != nil {
		return nil, err
	}
	out := &Outcome{}
	if out.Before, err = snapshot.Take(ws); err != nil {
		return nil, err
	}
	h, err := StartHost(ctx, HostConfig{Argv: argv, Workspace: ws, StoreDir: store, Mode: sc.Mode, Home: filepath.Join(dir, "home")})
	if err != nil {
		return nil, err
	}
	defer func() {
		if cerr := h.Close(); cerr != nil && out.HostError == nil {
			out.HostError = cerr
		}
		out.Stderr = h.Stderr()
	}()
	out.Host = h.Init
	m := model.NewScripted(sc.Rounds)
	exec := h.exec
	out.Result, err = run.Run(ctx, run.Deps{Model: m, Tools: exec, Clock: &clock{}, IDs: &ids{}}, run.Request{Request: prompt.Request{
		Goal: sc.Task, TaskID: "task-1", WorkspaceRoot: ws, Mode: sc.Mode,
		Prompt: prompt.Configuration{ApprovalProfile: "balanced", Complexity: "standard", NetworkAccess: "denied",
			WriteAccess: "allowed", HostEnvironment: hostEnvironment(out.Host.CommandEnvironment)},
	}})
	if err != nil {
		return out, err
	}
	out.HostError = exec.hostError()
	out.ModelConsumed = m.Consumed()
	if out.After, err = snapshot.Take(ws); err != nil {
		return out, err
	}
	return out, nil
}

func writeFiles(root string, files map[string]string) error {
	for p, content := range files {
		abs := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(abs, []byte(content), 0o644); err != nil {
			return fmt.Errorf("seeding workspace file %q: %w", p, err)
		}
	}
	return nil
}

// executor is the core's tool executor port over the wire client. It keeps
// the first protocol error the host made.
type executor struct {
	client *wire.Client
	mu     sync.Mutex
	err    error
}

func (e *executor) record(err error) {
	var pe *wire.ProtocolError
	if errors.As(err, &pe) {
		e.mu.Lock()
		if e.err == nil {
			e.err = err
		}
		e.mu.Unlock()
	}
}

func (e *executor) hostError() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.err
}

func (e *executor) ToolSet(ctx context.Context) (port.ToolSet, error) {
	ts, err := e.client.ToolSet(ctx)
	e.record(err)
	return ts, err
}

func (e *executor) Execute(ctx context.Context, call port.ToolCall, tc port.ToolContext) (port.ToolResult, error) {
	args, err := json.Marshal(call.Arguments)
	if err != nil {
		return port.ToolResult{}, err
	}
	res, err := e.client.Execute(ctx, wire.ExecuteParams{
		CallID: call.ToolCallID, ModelName: call.Name, Arguments: args,
		IdempotencyKey: tc.IdempotencyKey, TimeoutMs: tc.TimeoutMs,
		Context: wire.RunContext{RunID: tc.RunID, TaskID: tc.TaskID, Mode: tc.Mode},
	})
	e.record(err)
	return res, err
}

// clock is a fixed clock; the skeleton's runs do not depend on time.
type clock struct{}

func (*clock) Now() int64 { return 0 }

// ids numbers IDs per prefix: run-1, run-2, …
type ids struct {
	mu sync.Mutex
	n  map[string]int
}

func (i *ids) NewID(prefix string) string {
	i.mu.Lock()
	defer i.mu.Unlock()
	if i.n == nil {
		i.n = map[string]int{}
	}
	i.n[prefix]++
	return fmt.Sprintf("%s-%d", prefix, i.n[prefix])
}

// hostEnvironment turns the host's reported command environment into the
// prompt's hostEnvironment, or nil when the host reported none.
func hostEnvironment(env *wire.CommandEnvironment) *prompt.HostEnvironment {
	if env == nil {
		return nil
	}
	h := *env
	h.Command.ArgumentsPrefix = append([]string{}, env.Command.ArgumentsPrefix...)
	return &h
}
